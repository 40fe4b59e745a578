//! The egress policy: which destinations a Function may reach, decided by
//! host name before anything is resolved and by address after resolution,
//! so a name that resolves to a forbidden address is refused as surely as
//! the address itself, and nothing is sent to either.
//!
//! Rules are host patterns (`example.com`, `*.example.com`, `*`, with an
//! optional `:port`) and address ranges (`10.0.0.0/8`, `169.254.169.254`,
//! `[fd00::]/8:443`). Deny wins; with an allow list, a destination must be
//! allowed by name or have every address allowed. Some addresses are
//! protected whatever the lists say unless an address rule allows them
//! explicitly: loopback, link-local (cloud metadata), unspecified,
//! multicast and broadcast, and the node's own addresses; the node's own
//! ports on those are never reachable.

use std::net::IpAddr;

use ipnet::IpNet;

/// A host pattern of an egress policy: `example.com` (that host),
/// `*.example.com` (its subdomains), `*` (anything), each optionally with
/// `:port`. IP addresses match literally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPattern {
    host: String,
    port: Option<u16>,
}

impl std::str::FromStr for HostPattern {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let s = text.trim().to_ascii_lowercase();
        let bad_port = |p: &str| p.parse::<u16>().map_err(|_| format!("{text}: {p:?} is not a port"));
        // `[v6]:port`, `[v6]`, `host:port`, `host`, or a bare IPv6 address.
        let (host, port) = if let Some(rest) = s.strip_prefix('[') {
            let (host, after) = rest.split_once(']').ok_or_else(|| format!("{text}: unclosed '['"))?;
            let port = after.strip_prefix(':').map(bad_port).transpose()?;
            (host.to_string(), port)
        } else if s.matches(':').count() == 1 {
            let (host, port) = s.split_once(':').unwrap_or((&s, ""));
            (host.to_string(), Some(bad_port(port)?))
        } else {
            (s.clone(), None)
        };
        if host.is_empty() {
            return Err(format!("{text}: no host"));
        }
        let wildcard_ok = host == "*" || host.strip_prefix("*.").is_some_and(|domain| !domain.contains('*'));
        if host.contains('*') && !wildcard_ok {
            return Err(format!("{text}: a wildcard may only be '*' or lead as '*.domain'"));
        }
        Ok(Self { host, port })
    }
}

impl HostPattern {
    pub(crate) fn matches(&self, host: &str, port: u16) -> bool {
        if self.port.is_some_and(|p| p != port) {
            return false;
        }
        let host = host.trim_start_matches('[').trim_end_matches(']');
        match self.host.strip_prefix("*.") {
            _ if self.host == "*" => true,
            Some(domain) => {
                host.len() > domain.len() + 1
                    && host.ends_with(domain)
                    && host[..host.len() - domain.len()].ends_with('.')
            }
            None => self.host == host,
        }
    }
}

impl std::fmt::Display for HostPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.port {
            Some(p) if self.host.contains(':') => write!(f, "[{}]:{p}", self.host),
            Some(p) => write!(f, "{}:{p}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// A range of addresses (a CIDR block, or one address), optionally one port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressRange {
    net: IpNet,
    port: Option<u16>,
}

impl AddressRange {
    fn matches(&self, ip: IpAddr, port: u16) -> bool {
        self.net.contains(&ip.to_canonical()) && self.port.is_none_or(|p| p == port)
    }
}

impl std::str::FromStr for AddressRange {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let s = text.trim();
        // `[v6]:port`, `[v6/len]:port`, `v4:port`, `v4/len:port`, or bare.
        let (addr, port) = if let Some(rest) = s.strip_prefix('[') {
            let (addr, after) = rest.split_once(']').ok_or_else(|| format!("{text}: unclosed '['"))?;
            let port = after
                .strip_prefix(':')
                .map(|p| p.parse::<u16>().map_err(|_| format!("{text}: {p:?} is not a port")))
                .transpose()?;
            (addr, port)
        } else if s.matches(':').count() == 1 {
            let (addr, port) = s.split_once(':').unwrap_or((s, ""));
            (
                addr,
                Some(
                    port.parse::<u16>()
                        .map_err(|_| format!("{text}: {port:?} is not a port"))?,
                ),
            )
        } else {
            (s, None)
        };
        let net = match addr.parse::<IpNet>() {
            Ok(net) => net,
            Err(_) => IpNet::from(
                addr.parse::<IpAddr>()
                    .map_err(|_| format!("{text}: not an address or CIDR range"))?,
            ),
        };
        // An IPv4-mapped range means the IPv4 addresses it maps.
        let net = match net {
            IpNet::V6(v6) if v6.addr().to_ipv4_mapped().is_some() && v6.prefix_len() >= 96 => {
                let v4 = v6.addr().to_ipv4_mapped().unwrap_or(std::net::Ipv4Addr::UNSPECIFIED);
                IpNet::new(IpAddr::V4(v4), v6.prefix_len() - 96).map_err(|e| format!("{text}: {e}"))?
            }
            other => other,
        };
        Ok(Self { net: net.trunc(), port })
    }
}

impl std::fmt::Display for AddressRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.port, self.net) {
            (Some(p), IpNet::V6(_)) => write!(f, "[{}]:{p}", self.net),
            (Some(p), IpNet::V4(_)) => write!(f, "{}:{p}", self.net),
            (None, _) => write!(f, "{}", self.net),
        }
    }
}

/// One entry of an egress policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EgressRule {
    /// A host name pattern, matched before resolution (an IP address
    /// written as the host matches itself).
    Host(HostPattern),
    /// An address range, matched against every address a host resolves to.
    Addresses(AddressRange),
}

impl std::str::FromStr for EgressRule {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        // The address part: inside brackets, before a single `:port`, or the
        // whole text; then without a `/prefix`.
        let t = text.trim();
        let address = match t.strip_prefix('[') {
            Some(rest) => rest.split(']').next().unwrap_or(rest),
            None if t.matches(':').count() == 1 => t.split(':').next().unwrap_or(t),
            None => t,
        };
        let looks_like_address = address.split('/').next().is_some_and(|a| a.parse::<IpAddr>().is_ok());
        if looks_like_address {
            text.parse().map(Self::Addresses)
        } else {
            text.parse().map(Self::Host)
        }
    }
}

impl std::fmt::Display for EgressRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Host(h) => h.fmt(f),
            Self::Addresses(a) => a.fmt(f),
        }
    }
}

/// Which destinations Functions may reach. Deny wins; with an allow list,
/// a destination must be allowed by name or have all its addresses allowed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EgressPolicy {
    /// What may be reached (empty: anything not denied).
    pub allow: Vec<EgressRule>,
    /// What may never be reached.
    pub deny: Vec<EgressRule>,
}

impl EgressPolicy {
    /// Why `host:port` is refused by name, if it is.
    pub(crate) fn refuses_name(&self, host: &str, port: u16) -> Option<String> {
        let host_rule = |rule: &EgressRule| matches!(rule, EgressRule::Host(p) if p.matches(host, port));
        if let Some(rule) = self.deny.iter().find(|r| host_rule(r)) {
            return Some(format!("it matches the deny pattern {rule}"));
        }
        let address_rules = self.allow.iter().any(|r| matches!(r, EgressRule::Addresses(_)));
        if !self.allow.is_empty() && !address_rules && !self.allow.iter().any(host_rule) {
            return Some("it matches no allow pattern".into());
        }
        None
    }

    /// Why `ip:port`, an address `host` resolved to, is refused, if it is.
    pub(crate) fn refuses_address(&self, host: &str, ip: IpAddr, port: u16) -> Option<String> {
        let address_rule = |rule: &EgressRule| matches!(rule, EgressRule::Addresses(r) if r.matches(ip, port));
        if let Some(rule) = self.deny.iter().find(|r| address_rule(r)) {
            return Some(format!("its address {ip} matches the deny pattern {rule}"));
        }
        if self.allow.is_empty() {
            return None;
        }
        let by_name = self
            .allow
            .iter()
            .any(|r| matches!(r, EgressRule::Host(p) if p.matches(host, port)));
        if !by_name && !self.allow.iter().any(address_rule) {
            return Some(format!("neither it nor its address {ip} matches an allow pattern"));
        }
        None
    }

    /// Whether any rule is an address range (checked on each connection).
    pub(crate) fn has_address_rules(&self) -> bool {
        self.allow
            .iter()
            .chain(&self.deny)
            .any(|r| matches!(r, EgressRule::Addresses(_)))
    }

    /// Whether an address rule of the allow list names `ip:port`: what
    /// unlocks a protected address.
    pub(crate) fn allows_address_explicitly(&self, ip: IpAddr, port: u16) -> bool {
        self.allow
            .iter()
            .any(|r| matches!(r, EgressRule::Addresses(a) if a.matches(ip, port)))
    }
}

/// The addresses no Function reaches unless an address rule allows them,
/// and the ports of the node itself, which none ever reaches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtectedAddresses {
    /// The node's own addresses (its pod IP), besides loopback.
    pub node_addresses: Vec<IpAddr>,
    /// The node's own ports (its listener, metrics).
    pub node_ports: Vec<u16>,
    /// Whether loopback addresses may be reached (but never the node's own
    /// ports on them): `shoal up`, where a developer's database listens on
    /// localhost. In a cluster, loopback is the node's own pod.
    pub loopback_allowed: bool,
    /// The cluster's pod and Service ranges (and whatever else the
    /// operator keeps Functions out of): other tenants' pods, the API
    /// server, the registry.
    pub ranges: Vec<ipnet::IpNet>,
    /// `host:port` endpoints of the platform itself that Functions reach
    /// by design though they lie in `ranges` (Kyma's eventing publisher
    /// proxy), matched by the name the Function used.
    pub platform_endpoints: Vec<(String, u16)>,
}

impl ProtectedAddresses {
    /// Why `ip` is protected, if it is.
    pub(crate) fn protects(&self, ip: IpAddr) -> Option<&'static str> {
        let ip = ip.to_canonical();
        let node = self.node_addresses.iter().any(|a| a.to_canonical() == ip);
        match ip {
            _ if node => Some("the node's own address"),
            _ if self.ranges.iter().any(|r| r.contains(&ip)) => {
                Some("inside the cluster's protected ranges (its pods and Services)")
            }
            _ if ip.is_loopback() && self.loopback_allowed => None,
            IpAddr::V4(v4) if v4.is_loopback() => Some("a loopback address"),
            IpAddr::V4(v4) if v4.is_link_local() => Some("a link-local address (where cloud metadata services answer)"),
            IpAddr::V4(v4) if v4.is_unspecified() => Some("the unspecified address"),
            IpAddr::V4(v4) if v4.is_multicast() || v4.is_broadcast() => Some("a multicast or broadcast address"),
            IpAddr::V6(v6) if v6.is_loopback() => Some("a loopback address"),
            IpAddr::V6(v6) if v6.is_unicast_link_local() => Some("a link-local address"),
            IpAddr::V6(v6) if v6.is_unspecified() => Some("the unspecified address"),
            IpAddr::V6(v6) if v6.is_multicast() => Some("a multicast address"),
            _ => None,
        }
    }

    /// Whether `host:port` is a platform endpoint (see `platform_endpoints`).
    pub(crate) fn is_platform_endpoint(&self, host: &str, port: u16) -> bool {
        self.platform_endpoints
            .iter()
            .any(|(h, p)| *p == port && h.eq_ignore_ascii_case(host))
    }

    /// Whether `ip:port` is one of the node's own listening sockets.
    pub(crate) fn is_node_port(&self, ip: IpAddr, port: u16) -> bool {
        let ip = ip.to_canonical();
        let own_address =
            ip.is_loopback() || ip.is_unspecified() || self.node_addresses.iter().any(|a| a.to_canonical() == ip);
        own_address && self.node_ports.contains(&port)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(s: &str) -> HostPattern {
        s.parse().unwrap()
    }

    fn rule(s: &str) -> EgressRule {
        s.parse().unwrap()
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn host_patterns_match_hosts_subdomains_and_ports() {
        assert!(pattern("api.example.com").matches("api.example.com", 443));
        assert!(!pattern("api.example.com").matches("example.com", 443));
        assert!(pattern("*.example.com").matches("a.b.example.com", 80));
        assert!(!pattern("*.example.com").matches("example.com", 80));
        assert!(!pattern("*.example.com").matches("badexample.com", 80));
        assert!(pattern("*").matches("anything", 1));
        assert!("a*b.com".parse::<HostPattern>().is_err());
    }

    #[test]
    fn rules_are_host_patterns_or_address_ranges() {
        assert!(matches!(rule("api.example.com"), EgressRule::Host(_)));
        assert!(matches!(rule("*.example.com:443"), EgressRule::Host(_)));
        assert!(matches!(rule("10.0.0.0/8"), EgressRule::Addresses(_)));
        assert!(matches!(rule("127.0.0.1:8080"), EgressRule::Addresses(_)));
        assert!(matches!(rule("[::1]:80"), EgressRule::Addresses(_)));
        assert!(matches!(rule("fd00::/8"), EgressRule::Addresses(_)));
        assert!("10.0.0.0/33".parse::<EgressRule>().is_err());
    }

    #[test]
    fn address_ranges_match_every_spelling_of_an_address() {
        let range: AddressRange = "127.0.0.0/8".parse().unwrap();
        assert!(range.matches(ip("127.0.0.1"), 1));
        // The IPv4-mapped IPv6 form of a loopback address is loopback too.
        assert!(range.matches(ip("::ffff:127.0.0.1"), 1));
        assert!(!range.matches(ip("128.0.0.1"), 1));
        let mapped: AddressRange = "::ffff:10.0.0.0/104".parse().unwrap();
        assert!(mapped.matches(ip("10.1.2.3"), 1));
        let one_port: AddressRange = "[::1]:5432".parse().unwrap();
        assert!(one_port.matches(ip("::1"), 5432));
        assert!(!one_port.matches(ip("::1"), 5433));
    }

    #[test]
    fn deny_wins_and_an_allow_list_closes_everything_else() {
        let policy = EgressPolicy {
            allow: vec![rule("*.shop.internal")],
            deny: vec![rule("admin.shop.internal")],
        };
        assert!(policy.refuses_name("cart.shop.internal", 80).is_none());
        assert!(
            policy
                .refuses_name("admin.shop.internal", 80)
                .unwrap()
                .contains("deny pattern admin.shop.internal")
        );
        assert!(
            policy
                .refuses_name("example.com", 443)
                .unwrap()
                .contains("no allow pattern")
        );
        assert!(EgressPolicy::default().refuses_name("example.com", 443).is_none());
    }

    #[test]
    fn a_name_resolving_into_a_denied_range_is_refused_by_address() {
        let policy = EgressPolicy {
            allow: vec![],
            deny: vec![rule("10.0.0.0/8")],
        };
        assert!(policy.refuses_name("innocent.example", 80).is_none());
        assert!(
            policy
                .refuses_address("innocent.example", ip("10.96.0.1"), 443)
                .unwrap()
                .contains("its address 10.96.0.1 matches the deny pattern 10.0.0.0/8")
        );
        assert!(
            policy
                .refuses_address("innocent.example", ip("192.0.2.1"), 443)
                .is_none()
        );
    }

    #[test]
    fn with_address_allow_rules_a_host_must_be_allowed_by_name_or_address() {
        let policy = EgressPolicy {
            allow: vec![rule("api.example.com"), rule("192.0.2.0/24")],
            deny: vec![],
        };
        // Not decided by name while address rules could still allow it.
        assert!(policy.refuses_name("other.example", 443).is_none());
        assert!(policy.refuses_address("other.example", ip("192.0.2.9"), 443).is_none());
        assert!(
            policy
                .refuses_address("other.example", ip("198.51.100.1"), 443)
                .is_some()
        );
        assert!(
            policy
                .refuses_address("api.example.com", ip("198.51.100.1"), 443)
                .is_none()
        );
    }

    #[test]
    fn protected_addresses_cover_loopback_link_local_and_the_node() {
        let protected = ProtectedAddresses {
            node_addresses: vec![ip("10.244.0.7")],
            node_ports: vec![8080],
            loopback_allowed: false,
            ..ProtectedAddresses::default()
        };
        for address in [
            "127.0.0.1",
            "::1",
            "::ffff:127.0.0.1",
            "169.254.169.254",
            "fe80::1",
            "0.0.0.0",
            "224.0.0.1",
            "10.244.0.7",
        ] {
            assert!(protected.protects(ip(address)).is_some(), "{address}");
        }
        assert!(protected.protects(ip("10.244.0.8")).is_none());
        assert!(protected.is_node_port(ip("10.244.0.7"), 8080));
        assert!(protected.is_node_port(ip("127.0.0.1"), 8080));
        assert!(!protected.is_node_port(ip("10.244.0.8"), 8080));
        let local = ProtectedAddresses {
            loopback_allowed: true,
            ..protected
        };
        assert!(local.protects(ip("127.0.0.1")).is_none());
        assert!(local.is_node_port(ip("127.0.0.1"), 8080));
    }
}

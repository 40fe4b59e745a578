//! Every TCP connection a Function makes starts here: fetch and node:http
//! (through [`GuardedConnector`], the HTTP client's connector), sockets and
//! WebSocket handshakes. A destination is checked by name, resolved with
//! the node's [`Resolve`]r, checked by address (the egress policy's address
//! rules and the protected addresses), and only then connected to, trying
//! the permitted addresses in order. Checking the addresses that are then
//! dialled, in one place, is what keeps a name from resolving its way past
//! the policy.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use hyper_util::rt::TokioIo;
use shoal_runtime::OutboundError;
use tokio::net::TcpStream;

use crate::policy::{EgressPolicy, ProtectedAddresses};

/// Turns host names into addresses for outbound calls.
pub trait Resolve: Send + Sync + 'static {
    /// The addresses of `host`, in the order to try them.
    fn lookup(&self, host: &str) -> BoxFuture<'static, std::io::Result<Vec<IpAddr>>>;
}

/// The system's resolver (getaddrinfo: /etc/hosts, then DNS), as Node's
/// `dns.lookup` and connections use it.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn lookup(&self, host: &str) -> BoxFuture<'static, std::io::Result<Vec<IpAddr>>> {
        let host = host.to_string();
        Box::pin(async move {
            let mut addresses: Vec<IpAddr> = Vec::new();
            for address in tokio::net::lookup_host((host.as_str(), 0)).await? {
                if !addresses.contains(&address.ip()) {
                    addresses.push(address.ip());
                }
            }
            Ok(addresses)
        })
    }
}

/// Fixed answers for some names (`--resolve NAME=IP`, as curl's), the
/// system's for the rest.
#[derive(Debug, Clone, Default)]
pub struct OverrideResolver {
    entries: HashMap<String, Vec<IpAddr>>,
}

impl OverrideResolver {
    /// Answers `name` with `addresses` (names are compared without case).
    pub fn with(mut self, name: &str, addresses: Vec<IpAddr>) -> Self {
        self.entries.insert(name.to_ascii_lowercase(), addresses);
        self
    }
}

impl Resolve for OverrideResolver {
    fn lookup(&self, host: &str) -> BoxFuture<'static, std::io::Result<Vec<IpAddr>>> {
        match self.entries.get(&host.trim_end_matches('.').to_ascii_lowercase()) {
            Some(addresses) => {
                let addresses = addresses.clone();
                Box::pin(async move { Ok(addresses) })
            }
            None => SystemResolver.lookup(host),
        }
    }
}

/// Resolves, checks and connects, for every outbound TCP connection.
pub(crate) struct Dialer {
    pub(crate) resolver: Arc<dyn Resolve>,
    /// The node's policy.
    pub(crate) policy: EgressPolicy,
    pub(crate) protected: ProtectedAddresses,
}

impl Dialer {
    /// Why `host:port` may not be reached by name under the node's policy
    /// and `namespace`'s (whose name it carries), if it may not.
    pub(crate) fn refuse_name(
        &self,
        namespace: Option<(&str, &EgressPolicy)>,
        host: &str,
        port: u16,
    ) -> Result<(), OutboundError> {
        let refused = self
            .policy
            .refuses_name(host, port)
            .map(|why| ("the node's".to_string(), why))
            .or_else(|| {
                namespace
                    .and_then(|(_, p)| p.refuses_name(host, port))
                    .map(|why| ("its namespace's".into(), why))
            });
        match refused {
            Some((whose, why)) => Err(denied(host, &whose, &why)),
            None => Ok(()),
        }
    }

    /// The addresses of `host` that may be dialled on `port`: all of them,
    /// or an error naming the first that may not (a name resolving to a
    /// forbidden address is refused whole).
    pub(crate) async fn permitted(
        &self,
        namespace: Option<(&str, &EgressPolicy)>,
        host: &str,
        port: u16,
        family: u8,
        deadline: Instant,
    ) -> Result<Vec<SocketAddr>, OutboundError> {
        self.refuse_name(namespace, host, port)?;
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let addresses = match bare.parse::<IpAddr>() {
            Ok(ip) => vec![ip],
            Err(_) => tokio::time::timeout_at(deadline.into(), self.resolver.lookup(bare))
                .await
                .map_err(|_| {
                    OutboundError::new(
                        "timeout",
                        format!("getaddrinfo ETIMEOUT {host}: the lookup outlived the Function's remaining time"),
                    )
                    .with_code("ETIMEOUT")
                })?
                .map_err(|_| not_found(host))?,
        };
        let mut permitted = Vec::new();
        for ip in addresses {
            if (family == 4 && !ip.is_ipv4()) || (family == 6 && !ip.is_ipv6()) {
                continue;
            }
            self.check_address(namespace, host, ip, port)?;
            permitted.push(SocketAddr::new(ip, port));
        }
        if permitted.is_empty() {
            return Err(not_found(host));
        }
        Ok(permitted)
    }

    fn check_address(
        &self,
        namespace: Option<(&str, &EgressPolicy)>,
        host: &str,
        ip: IpAddr,
        port: u16,
    ) -> Result<(), OutboundError> {
        // An IPv4-mapped IPv6 address is the IPv4 address it maps.
        let ip = ip.to_canonical();
        if self.protected.is_node_port(ip, port) {
            return Err(denied(
                host,
                "the node's",
                &format!("{ip}:{port} is the node's own port"),
            ));
        }
        let explicitly_allowed = self.policy.allows_address_explicitly(ip, port)
            || namespace.is_some_and(|(_, p)| p.allows_address_explicitly(ip, port));
        let platform = self.protected.is_platform_endpoint(host, port) && !ip.is_loopback() && !ip.is_unspecified();
        if let Some(what) = self.protected.protects(ip)
            && !explicitly_allowed
            && !(platform && self.protected.ranges.iter().any(|r| r.contains(&ip)))
        {
            return Err(denied(
                host,
                "the node's",
                &format!("its address {ip} is {what}, which only an address rule can allow"),
            ));
        }
        if let Some(why) = self.policy.refuses_address(host, ip, port) {
            return Err(denied(host, "the node's", &why));
        }
        if let Some((_, policy)) = namespace
            && let Some(why) = policy.refuses_address(host, ip, port)
        {
            return Err(denied(host, "its namespace's", &why));
        }
        Ok(())
    }

    /// Connects to the first permitted address of `host:port` that answers.
    pub(crate) async fn dial(
        &self,
        namespace: Option<(&str, &EgressPolicy)>,
        host: &str,
        port: u16,
        family: u8,
        deadline: Instant,
    ) -> Result<TcpStream, OutboundError> {
        let addresses = self.permitted(namespace, host, port, family, deadline).await?;
        let mut last = None;
        for address in addresses {
            match tokio::time::timeout_at(deadline.into(), TcpStream::connect(address)).await {
                Err(_) => return Err(connect_error("ETIMEDOUT", address)),
                Ok(Ok(stream)) => return Ok(stream),
                Ok(Err(e)) => last = Some((e, address)),
            }
        }
        match last {
            Some((e, address)) => Err(connect_error(node_code(&e), address)),
            None => Err(not_found(host)),
        }
    }
}

/// The HTTP client's connector: dials through the [`Dialer`], so fetch and
/// node:http obey the same policy as sockets. A client made for one
/// namespace's policy carries it.
#[derive(Clone)]
pub(crate) struct GuardedConnector {
    pub(crate) dialer: Arc<Dialer>,
    pub(crate) namespace: Option<(String, Arc<EgressPolicy>)>,
    /// Bounds a connection attempt the request's own deadline does not reach.
    pub(crate) connect_timeout: Duration,
}

impl tower_service::Service<http::Uri> for GuardedConnector {
    type Response = TokioIo<TcpStream>;
    type Error = OutboundError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: http::Uri) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            let host = uri.host().unwrap_or_default().to_string();
            let https = uri.scheme_str() == Some("https");
            let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
            let namespace = this.namespace.as_ref().map(|(n, p)| (n.as_str(), p.as_ref()));
            let deadline = shoal_runtime::deadline_after(this.connect_timeout);
            let stream = this.dialer.dial(namespace, &host, port, 0, deadline).await?;
            // As undici: requests are written whole, Nagle would only delay them.
            let _ = stream.set_nodelay(true);
            Ok(TokioIo::new(stream))
        })
    }
}

pub(crate) fn denied(host: &str, whose: &str, why: &str) -> OutboundError {
    // EACCES, as a connect the operating system refuses: drivers report it
    // as the permission failure it is.
    OutboundError::new(
        "policy",
        format!("egress to {host} is denied by {whose} egress policy: {why}"),
    )
    .with_code("EACCES")
}

pub(crate) fn not_found(host: &str) -> OutboundError {
    OutboundError::new("network", format!("getaddrinfo ENOTFOUND {host}")).with_code("ENOTFOUND")
}

fn connect_error(code: &'static str, address: SocketAddr) -> OutboundError {
    OutboundError::new("network", format!("connect {code} {address}")).with_code(code)
}

/// Node's code for a failed connect.
fn node_code(error: &std::io::Error) -> &'static str {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::ConnectionRefused => "ECONNREFUSED",
        ErrorKind::ConnectionReset => "ECONNRESET",
        ErrorKind::TimedOut => "ETIMEDOUT",
        ErrorKind::HostUnreachable => "EHOSTUNREACH",
        ErrorKind::NetworkUnreachable => "ENETUNREACH",
        ErrorKind::AddrNotAvailable => "EADDRNOTAVAIL",
        ErrorKind::PermissionDenied => "EACCES",
        _ => "ECONNREFUSED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::EgressRule;

    fn dialer(loopback_allowed: bool, deny: &[&str]) -> Dialer {
        let resolver = OverrideResolver::default()
            .with("metadata.test", vec!["169.254.169.254".parse().unwrap()])
            .with("mapped.test", vec!["::ffff:169.254.169.254".parse().unwrap()])
            .with(
                "mixed.test",
                vec!["192.0.2.10".parse().unwrap(), "10.1.2.3".parse().unwrap()],
            )
            .with("local.test", vec!["127.0.0.1".parse().unwrap()])
            .with("kubernetes.default.svc", vec!["10.96.0.1".parse().unwrap()])
            .with("orders.shop.svc", vec!["10.96.40.7".parse().unwrap()])
            .with(
                "registry.test",
                vec!["2001:db8::5".parse().unwrap(), "10.96.0.9".parse().unwrap()],
            )
            .with("publisher.kyma.svc", vec!["10.96.3.3".parse().unwrap()]);
        Dialer {
            resolver: Arc::new(resolver),
            policy: EgressPolicy {
                allow: vec![],
                deny: deny.iter().map(|r| r.parse::<EgressRule>().unwrap()).collect(),
            },
            protected: ProtectedAddresses {
                node_addresses: vec!["10.244.0.7".parse().unwrap()],
                node_ports: vec![8080],
                loopback_allowed,
                ranges: vec!["10.96.0.0/12".parse().unwrap(), "10.244.0.0/16".parse().unwrap()],
                platform_endpoints: vec![("publisher.kyma.svc".into(), 80)],
            },
        }
    }

    // The cluster's own addresses (the API server, the registry, other
    // tenants' Services) are refused by address, whatever name reaches
    // them; the publisher proxy is reachable by its name and port only,
    // and an address rule opens what the operator allows.
    #[tokio::test]
    async fn the_clusters_ranges_are_refused_except_the_platform_and_what_is_allowed() {
        let cluster = dialer(false, &[]);
        for (host, port) in [
            ("kubernetes.default.svc", 443),
            ("10.96.0.1", 443),
            ("[::ffff:10.96.0.1]", 443),
            ("registry.test", 5000),
            ("orders.shop.svc", 5432),
            ("10.244.3.4", 8080),
            ("publisher.kyma.svc", 8080),
            ("10.96.3.3", 80),
        ] {
            assert!(
                refusal(&cluster, host, port)
                    .await
                    .contains("inside the cluster's protected ranges"),
                "{host}:{port}"
            );
        }
        let proxy = cluster
            .permitted(None, "publisher.kyma.svc", 80, 0, soon())
            .await
            .unwrap();
        assert_eq!(proxy, vec!["10.96.3.3:80".parse().unwrap()]);
        let mut opened = dialer(false, &[]);
        opened.policy.allow = vec!["10.96.40.7:5432".parse().unwrap(), "*".parse().unwrap()];
        assert_eq!(
            opened
                .permitted(None, "orders.shop.svc", 5432, 0, soon())
                .await
                .unwrap(),
            vec!["10.96.40.7:5432".parse().unwrap()]
        );
        assert!(
            refusal(&opened, "orders.shop.svc", 5433)
                .await
                .contains("inside the cluster's protected ranges")
        );
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    async fn refusal(dialer: &Dialer, host: &str, port: u16) -> String {
        match dialer.permitted(None, host, port, 0, soon()).await {
            Ok(addresses) => panic!("{host}:{port} was permitted: {addresses:?}"),
            Err(e) => {
                assert_eq!(e.kind, "policy", "{e}");
                assert_eq!(e.code, Some("EACCES"));
                e.message
            }
        }
    }

    // Every case is decided before a connection is attempted: `permitted`
    // never dials.
    #[tokio::test]
    async fn names_resolving_to_protected_addresses_are_refused_before_dialling() {
        let cluster = dialer(false, &[]);
        assert!(
            refusal(&cluster, "metadata.test", 80)
                .await
                .contains("169.254.169.254 is a link-local address")
        );
        assert!(refusal(&cluster, "mapped.test", 80).await.contains("link-local"));
        assert!(refusal(&cluster, "169.254.169.254", 80).await.contains("link-local"));
        assert!(refusal(&cluster, "[::ffff:127.0.0.1]", 5432).await.contains("loopback"));
        assert!(refusal(&cluster, "local.test", 5432).await.contains("loopback"));
        assert!(
            refusal(&cluster, "10.244.0.7", 9000)
                .await
                .contains("the node's own address")
        );
        assert!(
            refusal(&cluster, "10.244.0.7", 8080)
                .await
                .contains("the node's own port")
        );
        assert!(refusal(&cluster, "0.0.0.0", 8080).await.contains("the node's own port"));
    }

    #[tokio::test]
    async fn a_local_node_reaches_loopback_but_never_its_own_port() {
        let local = dialer(true, &[]);
        assert_eq!(
            local.permitted(None, "local.test", 5432, 0, soon()).await.unwrap(),
            vec!["127.0.0.1:5432".parse().unwrap()]
        );
        assert!(refusal(&local, "local.test", 8080).await.contains("own port"));
        assert!(refusal(&local, "metadata.test", 80).await.contains("link-local"));
    }

    #[tokio::test]
    async fn one_forbidden_address_refuses_the_whole_name() {
        let node = dialer(false, &["10.0.0.0/8"]);
        assert!(
            refusal(&node, "mixed.test", 443)
                .await
                .contains("10.1.2.3 matches the deny pattern 10.0.0.0/8")
        );
    }

    #[tokio::test]
    async fn an_address_rule_unlocks_a_protected_address() {
        let mut node = dialer(false, &[]);
        node.policy.allow = vec!["169.254.169.254:80".parse().unwrap()];
        assert!(node.permitted(None, "metadata.test", 80, 0, soon()).await.is_ok());
        assert!(refusal(&node, "metadata.test", 81).await.contains("link-local"));
    }

    #[tokio::test]
    async fn a_permitted_address_is_dialled() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let local = dialer(true, &[]);
        let stream = local.dial(None, "local.test", port, 0, soon()).await.unwrap();
        assert_eq!(stream.peer_addr().unwrap().port(), port);
    }
}

//! Name resolution for Functions, as Node splits it: `dns.lookup` asks the
//! system resolver (getaddrinfo: /etc/hosts, then DNS), `dns.resolve*`
//! sends DNS queries (c-ares in Node, hickory here) to the node's name
//! servers: those of /etc/resolv.conf, or the ones configured
//! (`--dns-server`). Answers come back in Node's shape for each record
//! type, failures with Node's codes and messages (`queryMx ENOTFOUND x`).

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, OnceLock};

use base64::Engine as _;
use hickory_resolver::config::{NameServerConfig, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::net::{DnsError, NetError};
use hickory_resolver::proto::op::ResponseCode;
use hickory_resolver::proto::rr::{Name, RData, Record, RecordType};
use hickory_resolver::{Resolver, TokioResolver};
use serde_json::{Value, json};
use shoal_runtime::OutboundError;
use shoal_runtime::outbound::ResolveRequest;

/// The DNS client of a node: built once, at the first query.
#[derive(Clone, Default)]
pub(crate) struct Dns {
    /// Name servers to ask instead of /etc/resolv.conf's.
    servers: Arc<Vec<SocketAddr>>,
    resolver: Arc<OnceLock<Result<TokioResolver, String>>>,
}

impl Dns {
    pub(crate) fn new(servers: Vec<SocketAddr>) -> Self {
        Self {
            servers: Arc::new(servers),
            resolver: Arc::default(),
        }
    }

    fn resolver(&self) -> Result<&TokioResolver, OutboundError> {
        let built = self.resolver.get_or_init(|| {
            let builder = if self.servers.is_empty() {
                TokioResolver::builder_tokio().map_err(|e| format!("reading the system's DNS configuration: {e}"))?
            } else {
                let servers = self
                    .servers
                    .iter()
                    .map(|server| {
                        let mut config = NameServerConfig::udp_and_tcp(server.ip());
                        for connection in &mut config.connections {
                            connection.port = server.port();
                        }
                        config
                    })
                    .collect();
                Resolver::builder_with_config(
                    ResolverConfig::from_name_servers(servers),
                    TokioRuntimeProvider::default(),
                )
            };
            builder.build().map_err(|e| format!("setting up the DNS client: {e}"))
        });
        built
            .as_ref()
            .map_err(|message| OutboundError::new("network", message.clone()).with_code("ECONNREFUSED"))
    }

    /// The records of one query, in Node's shape (`dns.resolve*`).
    pub(crate) async fn resolve(&self, request: ResolveRequest) -> Result<Value, OutboundError> {
        let rrtype = request.rrtype.to_ascii_uppercase();
        let (record_type, syscall) = match rrtype.as_str() {
            "A" => (RecordType::A, "queryA"),
            "AAAA" => (RecordType::AAAA, "queryAaaa"),
            "CAA" => (RecordType::CAA, "queryCaa"),
            "CNAME" => (RecordType::CNAME, "queryCname"),
            "MX" => (RecordType::MX, "queryMx"),
            "NAPTR" => (RecordType::NAPTR, "queryNaptr"),
            "NS" => (RecordType::NS, "queryNs"),
            "PTR" => (RecordType::PTR, "queryPtr"),
            "SOA" => (RecordType::SOA, "querySoa"),
            "SRV" => (RecordType::SRV, "querySrv"),
            "TXT" => (RecordType::TXT, "queryTxt"),
            "TLSA" => (RecordType::TLSA, "queryTlsa"),
            "ANY" => (RecordType::ANY, "queryAny"),
            other => {
                return Err(OutboundError::new(
                    "invalid",
                    format!("The argument 'rrtype' is invalid. Received '{other}'"),
                )
                .with_code("ERR_INVALID_ARG_VALUE"));
            }
        };
        let hostname = request.hostname.as_str();
        // As c-ares: the name is asked as given, never with search domains.
        let name = Name::from_utf8(format!("{}.", hostname.trim_end_matches('.')))
            .map_err(|_| query_error("EBADNAME", syscall, hostname))?;
        let lookup = self
            .resolver()?
            .lookup(name, record_type)
            .await
            .map_err(|e| classify(&e, syscall, hostname))?;
        let records: Vec<&Record> = lookup
            .answers()
            .iter()
            .filter(|r| record_type == RecordType::ANY || r.record_type() == record_type)
            .collect();
        if records.is_empty() {
            return Err(query_error("ENODATA", syscall, hostname));
        }
        if record_type == RecordType::SOA {
            // Node answers one object for SOA, not a list.
            return Ok(records
                .first()
                .map(|r| shape(r, request.ttl, false))
                .unwrap_or(Value::Null));
        }
        let any = record_type == RecordType::ANY;
        Ok(Value::Array(
            records
                .iter()
                .map(|r| shape(r, request.ttl || any, any))
                .filter(|v| !v.is_null())
                .collect(),
        ))
    }

    /// The names of an address (`dns.reverse`).
    pub(crate) async fn reverse(&self, ip: IpAddr) -> Result<Vec<String>, OutboundError> {
        let found = self
            .resolver()?
            .reverse_lookup(ip)
            .await
            .map_err(|e| classify(&e, "getHostByAddr", &ip.to_string()))?;
        Ok(found
            .answers()
            .iter()
            .filter_map(|r| match &r.data {
                RData::PTR(ptr) => Some(plain(&ptr.0)),
                _ => None,
            })
            .collect())
    }
}

/// A record as Node gives it: bare values for A/AAAA/CNAME/NS/PTR, objects
/// for the rest; with `typed` (resolveAny) every entry is an object with a
/// `type`.
fn shape(record: &Record, ttl: bool, typed: bool) -> Value {
    let mut value = match &record.data {
        RData::A(a) if ttl => json!({ "address": a.0.to_string(), "ttl": record.ttl }),
        RData::A(a) => json!(a.0.to_string()),
        RData::AAAA(a) if ttl => json!({ "address": a.0.to_string(), "ttl": record.ttl }),
        RData::AAAA(a) => json!(a.0.to_string()),
        RData::CNAME(n) => text(plain(&n.0), typed),
        RData::NS(n) => text(plain(&n.0), typed),
        RData::PTR(n) => text(plain(&n.0), typed),
        RData::MX(mx) => json!({ "exchange": plain(&mx.exchange), "priority": mx.preference }),
        RData::SRV(srv) => json!({
            "name": plain(&srv.target), "port": srv.port, "priority": srv.priority, "weight": srv.weight
        }),
        RData::TXT(txt) => {
            let chunks: Vec<String> = txt
                .txt_data
                .iter()
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect();
            if typed {
                json!({ "entries": chunks })
            } else {
                json!(chunks)
            }
        }
        RData::SOA(soa) => json!({
            "nsname": plain(&soa.mname), "hostmaster": plain(&soa.rname), "serial": soa.serial,
            "refresh": soa.refresh, "retry": soa.retry, "expire": soa.expire, "minttl": soa.minimum
        }),
        RData::CAA(caa) => {
            let mut entry = json!({ "critical": if caa.issuer_critical { 128 } else { 0 } });
            entry[caa.tag.as_str()] = json!(String::from_utf8_lossy(&caa.value));
            entry
        }
        // The certificate data as base64; the JavaScript side makes it the
        // ArrayBuffer Node gives.
        RData::TLSA(t) => json!({
            "certUsage": u8::from(t.cert_usage), "selector": u8::from(t.selector),
            "match": u8::from(t.matching), "data": base64::engine::general_purpose::STANDARD.encode(&t.cert_data)
        }),
        RData::NAPTR(n) => json!({
            "flags": String::from_utf8_lossy(&n.flags), "service": String::from_utf8_lossy(&n.services),
            "regexp": String::from_utf8_lossy(&n.regexp), "replacement": plain(&n.replacement),
            "order": n.order, "preference": n.preference
        }),
        _ => return Value::Null,
    };
    if typed && let Value::Object(map) = &mut value {
        map.insert("type".into(), json!(record.record_type().to_string()));
    }
    value
}

fn text(name: String, typed: bool) -> Value {
    if typed { json!({ "value": name }) } else { json!(name) }
}

/// A name as Node prints it: no trailing dot.
fn plain(name: &Name) -> String {
    let text = name.to_utf8();
    text.strip_suffix('.').unwrap_or(&text).to_string()
}

fn query_error(code: &'static str, syscall: &str, hostname: &str) -> OutboundError {
    OutboundError::new("network", format!("{syscall} {code} {hostname}")).with_code(code)
}

/// c-ares's code for a failed query.
fn classify(error: &NetError, syscall: &str, hostname: &str) -> OutboundError {
    let code = match error {
        NetError::Dns(DnsError::NoRecordsFound(_)) if error.is_nx_domain() => "ENOTFOUND",
        NetError::Dns(DnsError::NoRecordsFound(_)) => "ENODATA",
        NetError::Dns(DnsError::ResponseCode(ResponseCode::ServFail)) => "ESERVFAIL",
        NetError::Dns(DnsError::ResponseCode(ResponseCode::Refused)) => "EREFUSED",
        NetError::Dns(DnsError::ResponseCode(ResponseCode::NXDomain)) => "ENOTFOUND",
        NetError::Dns(DnsError::ResponseCode(ResponseCode::FormErr)) => "EFORMERR",
        NetError::Dns(DnsError::ResponseCode(ResponseCode::NotImp)) => "ENOTIMP",
        NetError::Timeout => "ETIMEOUT",
        NetError::Io(_) | NetError::NoConnections => "ECONNREFUSED",
        _ => "ESERVFAIL",
    };
    query_error(code, syscall, hostname)
}

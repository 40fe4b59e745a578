//! Which Function a request is for: by Host, or by path in local use.

use crate::functions::{FunctionKey, FunctionTable};

/// A resolved request target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The Function.
    pub key: FunctionKey,
    /// The path the Function sees.
    pub path: String,
}

/// What was asked for when nothing matched, for the 404 message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    /// Candidates tried, as `namespace/name`.
    pub tried: Vec<String>,
    /// The Host header.
    pub host: String,
}

/// Resolves `host` and `path` to a Function.
///
/// Host forms: `<name>.<ns>.svc.cluster.local`, `<name>.<ns>.svc`,
/// `<name>.<ns>` and a bare `<name>` (in `default_namespace`, or the only
/// namespace that has it), any port. Otherwise the path form
/// `/<ns>/<name>/rest` applies.
pub fn resolve(table: &FunctionTable, host: &str, path: &str, default_namespace: &str) -> Result<Target, NotFound> {
    let mut tried = Vec::new();
    let hostname = strip_port(host).to_ascii_lowercase();
    if let Some(key) = key_from_host(&hostname, default_namespace) {
        if table.get(&key).is_some() {
            return Ok(Target {
                key,
                path: path.to_string(),
            });
        }
        if !hostname.contains('.')
            && let [only] = table.namespaces_of(&key.name).as_slice()
        {
            return Ok(Target {
                key: FunctionKey::new(only.clone(), key.name),
                path: path.to_string(),
            });
        }
        tried.push(key.to_string());
    }
    let mut parts = path.trim_start_matches('/').splitn(3, '/');
    if let (Some(ns), Some(name)) = (parts.next(), parts.next())
        && !ns.is_empty()
        && !name.is_empty()
    {
        let key = FunctionKey::new(ns, name);
        if table.get(&key).is_some() {
            let rest = parts.next().unwrap_or("");
            return Ok(Target {
                key,
                path: format!("/{rest}"),
            });
        }
        tried.push(key.to_string());
    }
    Err(NotFound {
        tried,
        host: host.to_string(),
    })
}

fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split(']').next().map_or(host, |h| &h[1..]);
    }
    host.rsplit_once(':').map_or(
        host,
        |(h, p)| if p.chars().all(|c| c.is_ascii_digit()) { h } else { host },
    )
}

fn key_from_host(host: &str, default_namespace: &str) -> Option<FunctionKey> {
    let labels: Vec<&str> = host.split('.').collect();
    let valid = |s: &str| {
        !s.is_empty()
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    let key = match labels.as_slice() {
        [name] => FunctionKey::new(default_namespace, *name),
        [name, ns] | [name, ns, "svc"] | [name, ns, "svc", "cluster", "local"] => FunctionKey::new(*ns, *name),
        _ => return None,
    };
    (valid(&key.name) && valid(&key.namespace)).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_forms() {
        let k = |ns: &str, n: &str| Some(FunctionKey::new(ns, n));
        assert_eq!(
            key_from_host("hello.shop.svc.cluster.local", "default"),
            k("shop", "hello")
        );
        assert_eq!(key_from_host("hello.shop.svc", "default"), k("shop", "hello"));
        assert_eq!(key_from_host("hello.shop", "default"), k("shop", "hello"));
        assert_eq!(key_from_host("hello", "default"), k("default", "hello"));
        assert_eq!(key_from_host("127.0.0.1", "default"), None);
        assert_eq!(key_from_host("a.b.c.d", "default"), None);
        assert_eq!(strip_port("hello.shop:8080"), "hello.shop");
        assert_eq!(strip_port("[::1]:8080"), "::1");
    }
}

//! Kyma's resource presets and the Kubernetes quantities they are made of.

/// Runtime used when `spec.runtime` is empty (Kyma's default; it stays
/// `nodejs24` while Kyma's does).
pub const DEFAULT_RUNTIME: &str = "nodejs24";
/// Runtimes Shoal builds and serves.
pub const SERVED_RUNTIMES: &[&str] = &["nodejs20", "nodejs22", "nodejs24", "nodejs26"];
/// Runtimes Kyma knows but Shoal does not serve.
pub const KYMA_ONLY_RUNTIMES: &[&str] = &["python312", "python314"];
/// Function preset used when none is asked for.
pub const DEFAULT_FUNCTION_PRESET: &str = "L";
/// Build preset used when none is asked for.
pub const DEFAULT_BUILD_PRESET: &str = "normal";

/// Requests and limits of a preset, in Kubernetes quantity strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// The preset's name.
    pub name: &'static str,
    /// CPU request.
    pub request_cpu: &'static str,
    /// Memory request.
    pub request_memory: &'static str,
    /// CPU limit.
    pub limit_cpu: &'static str,
    /// Memory limit.
    pub limit_memory: &'static str,
}

const fn preset(
    name: &'static str,
    request_cpu: &'static str,
    request_memory: &'static str,
    limit_cpu: &'static str,
    limit_memory: &'static str,
) -> Preset {
    Preset {
        name,
        request_cpu,
        request_memory,
        limit_cpu,
        limit_memory,
    }
}

/// Function presets (Kyma's table).
pub const FUNCTION_PRESETS: &[Preset] = &[
    preset("XS", "50m", "64Mi", "150m", "256Mi"),
    preset("S", "100m", "128Mi", "200m", "256Mi"),
    preset("M", "200m", "256Mi", "400m", "512Mi"),
    preset("L", "400m", "512Mi", "800m", "1024Mi"),
    preset("XL", "800m", "1024Mi", "1600m", "2048Mi"),
];

/// Build presets (Kyma's table).
pub const BUILD_PRESETS: &[Preset] = &[
    preset("local-dev", "200m", "200Mi", "400m", "400Mi"),
    preset("slow", "200m", "200Mi", "700m", "700Mi"),
    preset("normal", "500m", "700Mi", "1100m", "1100Mi"),
    preset("fast", "900m", "1100Mi", "1700m", "1100Mi"),
];

/// Minimum CPU (millicores) and memory (bytes) of a Function's resources.
pub const FUNCTION_MINIMUM: (f64, f64) = (10.0, 16.0 * 1024.0 * 1024.0);
/// Minimum CPU (millicores) and memory (bytes) of a build's resources.
pub const BUILD_MINIMUM: (f64, f64) = (200.0, 200.0 * 1024.0 * 1024.0);

/// Looks a Function preset up by name.
pub fn function_preset(name: &str) -> Option<&'static Preset> {
    FUNCTION_PRESETS.iter().find(|p| p.name == name)
}

/// Looks a build preset up by name.
pub fn build_preset(name: &str) -> Option<&'static Preset> {
    BUILD_PRESETS.iter().find(|p| p.name == name)
}

/// Parses a Kubernetes quantity into its value in base units (cores for
/// CPU, bytes for memory): `100m`, `0.5`, `128Mi`, `1G`, `1e3`.
pub fn parse_quantity(q: &str) -> Option<f64> {
    let q = q.trim();
    let suffixes: &[(&str, f64)] = &[
        ("Ki", 1024.0),
        ("Mi", 1024.0 * 1024.0),
        ("Gi", 1024.0 * 1024.0 * 1024.0),
        ("Ti", 1024f64.powi(4)),
        ("Pi", 1024f64.powi(5)),
        ("Ei", 1024f64.powi(6)),
        ("n", 1e-9),
        ("u", 1e-6),
        ("m", 1e-3),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
        ("E", 1e18),
    ];
    for (suffix, factor) in suffixes {
        if let Some(number) = q.strip_suffix(suffix) {
            return parse_decimal(number).map(|n| n * factor);
        }
    }
    parse_decimal(q)
}

fn parse_decimal(s: &str) -> Option<f64> {
    if s.is_empty() || !s.starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '+' || c == '-') {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kubernetes_quantities() {
        assert_eq!(parse_quantity("100m"), Some(0.1));
        assert_eq!(parse_quantity("128Mi"), Some(134_217_728.0));
        assert_eq!(parse_quantity("1G"), Some(1e9));
        assert_eq!(parse_quantity("2"), Some(2.0));
        assert_eq!(parse_quantity("1e3"), Some(1000.0));
        assert_eq!(parse_quantity("lots"), None);
        assert_eq!(parse_quantity(""), None);
    }

    #[test]
    fn presets_respect_their_own_minimums_and_ordering() {
        for p in FUNCTION_PRESETS.iter().chain(BUILD_PRESETS) {
            let rc = parse_quantity(p.request_cpu).unwrap();
            let lc = parse_quantity(p.limit_cpu).unwrap();
            let rm = parse_quantity(p.request_memory).unwrap();
            let lm = parse_quantity(p.limit_memory).unwrap();
            assert!(rc <= lc && rm <= lm, "{}", p.name);
        }
    }
}

//! The conventions the controller and the node servers share in a cluster:
//! names and labels of the objects made for a Function, and the format in
//! which a node publishes which Functions it serves (sharded over
//! [`NODE_STATUS_SHARDS`] ConfigMaps per node, so no object grows towards the
//! API server's 1 MiB limit with the number of Functions).
//!
//! Both sides read and write these objects independently, so the names live
//! here, next to the types, rather than in either of them.

use std::collections::{BTreeMap, BTreeSet};

/// Label on every object Shoal creates.
pub const MANAGED_BY_LABEL: &str = "app.kubernetes.io/managed-by";
/// Value of [`MANAGED_BY_LABEL`].
pub const MANAGED_BY: &str = "shoal";
/// Label naming the Function an object belongs to.
pub const FUNCTION_LABEL: &str = "serverless.kyma-project.io/function-name";
/// Label telling what an object is for: `build`, `source`, `node-status`.
pub const ROLE_LABEL: &str = "shoal.dev/role";
/// Label on build Jobs: the first 32 hex digits of the build-input hash.
pub const BUILD_HASH_LABEL: &str = "shoal.dev/build-hash";
/// Annotation with the whole build-input hash (on ConfigMaps and Jobs).
pub const BUILD_HASH_ANNOTATION: &str = "shoal.dev/build-hash";
/// Annotation on a Function naming a Secret (in its namespace) whose
/// `.npmrc` key the build uses to install dependencies (a private npm
/// registry and its credentials); the controller's `--npmrc-secret` names
/// one for every Function that does not.
pub const NPMRC_SECRET_ANNOTATION: &str = "shoal.dev/npmrc-secret";
/// Annotation whose new value retries a failed build of unchanged source
/// (`kubectl annotate function NAME shoal.dev/rebuild="$(date +%s)" --overwrite`),
/// as deleting its failed build Job does for a Job's build.
pub const REBUILD_ANNOTATION: &str = "shoal.dev/rebuild";
/// Finalizer the controller puts on Functions so deletion unloads them first.
pub const FINALIZER: &str = "serverless.kyma-project.io/shoal-cleanup";
/// Field manager of everything the controller applies.
pub const CONTROLLER_MANAGER: &str = "shoal-controller";
/// Field manager of everything a node applies.
pub const NODE_MANAGER: &str = "shoal-node";
/// Value of `endpointslice.kubernetes.io/managed-by` on the EndpointSlices
/// the controller writes. A label value: no `/` (Kubernetes' own controllers
/// use `endpointslice-controller.k8s.io`), and not that one, so the
/// EndpointSlice controller leaves Shoal's slices alone.
pub const ENDPOINT_SLICE_MANAGER: &str = "shoal-controller.shoal.dev";
/// The port name of each Function's Service (Istio needs it to be `http`).
pub const SERVICE_PORT_NAME: &str = "http";

/// Role of a build Job.
pub const ROLE_BUILD: &str = "build";
/// Role of a Function's source ConfigMap.
pub const ROLE_SOURCE: &str = "source";
/// Role of a node's status ConfigMap.
pub const ROLE_NODE_STATUS: &str = "node-status";
/// How a node's published load error starts when the registry does not
/// have the Function's artifact (lost with the registry's storage): the
/// controller then builds it again.
pub const ARTIFACT_MISSING: &str = "artifact missing from the registry";
/// Role of the RBAC Role (and its binding) that lets the node pods read
/// what one Function references.
pub const ROLE_NODE_ACCESS: &str = "node-access";
/// Key of a node-status ConfigMap listing the Functions the node serves.
pub const NODE_STATUS_KEY: &str = "functions";
/// Key of a node-status ConfigMap listing Functions the node failed to load,
/// with why.
pub const NODE_ERRORS_KEY: &str = "errors";
/// Key of a node-status ConfigMap with the node pod's name.
pub const NODE_POD_KEY: &str = "pod";

/// Keys of a source ConfigMap.
pub mod source_keys {
    /// The handler's code.
    pub const SOURCE: &str = "source";
    /// package.json, present only when the Function has dependencies.
    pub const DEPENDENCIES: &str = "dependencies";
    /// The runtime after defaulting.
    pub const RUNTIME: &str = "runtime";
}

/// Name of a Function's source ConfigMap.
pub fn source_config_map_name(function: &str) -> String {
    format!("{function}-shoal-source")
}

/// Name of the Role and RoleBinding that let the node pods read the
/// Secrets and ConfigMaps a Function references.
pub fn node_access_name(function: &str) -> String {
    format!("{function}-shoal-node")
}

/// Name of the build Job for one build-input hash: deterministic, so a
/// controller that restarts mid-build finds its Job instead of starting a
/// second one. Stays within the 63 characters a Job name may have.
pub fn build_job_name(function: &str, hash: &str) -> String {
    let stem: String = function.chars().take(45).collect();
    let stem = stem.trim_end_matches('-');
    let short: String = hash.chars().take(10).collect();
    format!("{stem}-build-{short}")
}

/// Name of the EndpointSlice behind a Function's Service.
pub fn endpoint_slice_name(function: &str) -> String {
    format!("{function}-shoal")
}

/// Status ConfigMaps each node publishes: its Functions are spread over
/// them by [`status_shard`], so each holds about 1/32 of the Functions
/// (about 30 KB at 10,000 Functions, far from the 1 MiB object limit) and a
/// change to one Function rewrites one small object.
pub const NODE_STATUS_SHARDS: usize = 32;
/// Key of a node-status ConfigMap with its shard number.
pub const NODE_SHARD_KEY: &str = "shard";
/// Label on a node-status ConfigMap naming its node pod.
pub const NODE_POD_LABEL: &str = "shoal.dev/node-pod";

/// Name of one of a node's status ConfigMaps.
pub fn node_status_name(pod: &str, shard: usize) -> String {
    format!("shoal-node-{pod}-{shard:02}")
}

/// The status shard a Function is published in: a stable hash (FNV-1a) of
/// `namespace/name`, the same on every node and in the controller.
pub fn status_shard(namespace: &str, name: &str) -> usize {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in namespace.bytes().chain(std::iter::once(b'/')).chain(name.bytes()) {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash as usize % NODE_STATUS_SHARDS
}

/// The digest part of a digest-pinned reference (`…@sha256:…`).
pub fn artifact_digest(artifact: &str) -> Option<&str> {
    artifact.rsplit_once('@').map(|(_, d)| d)
}

/// Whether `artifact` is the Function's own module: in the repository
/// `<registry_prefix>/<namespace>/<name>`, pinned by a `sha256:` digest of
/// 64 lowercase hex digits. The controller trusts a build result, and a
/// node pulls, only when this holds.
pub fn is_own_artifact(artifact: &str, registry_prefix: &str, namespace: &str, name: &str) -> bool {
    let repository = format!("{}/{namespace}/{name}@sha256:", registry_prefix.trim_end_matches('/'));
    artifact
        .strip_prefix(&repository)
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

/// One Function a node serves, as published in its status ConfigMap.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ServedFunction {
    /// Its namespace.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// The digest of the module being served.
    pub digest: String,
}

/// Renders the set of served Functions, one `namespace/name digest` per line
/// (sorted, so unchanged sets give unchanged ConfigMaps).
pub fn render_served(served: &BTreeSet<ServedFunction>) -> String {
    let mut out = String::new();
    for f in served {
        out.push_str(&format!("{}/{} {}\n", f.namespace, f.name, f.digest));
    }
    out
}

/// Parses what [`render_served`] wrote; malformed lines are skipped.
pub fn parse_served(text: &str) -> BTreeSet<ServedFunction> {
    text.lines()
        .filter_map(|line| {
            let (key, digest) = line.trim().split_once(' ')?;
            let (namespace, name) = key.split_once('/')?;
            Some(ServedFunction {
                namespace: namespace.to_string(),
                name: name.to_string(),
                digest: digest.trim().to_string(),
            })
        })
        .collect()
}

/// Renders load failures, one `namespace/name message` per line; messages
/// are folded to one line and cut to 500 characters.
pub fn render_errors(errors: &BTreeMap<(String, String), String>) -> String {
    let mut out = String::new();
    for ((namespace, name), message) in errors {
        let mut line: String = message.split_whitespace().collect::<Vec<_>>().join(" ");
        if line.len() > 500 {
            let mut cut = 500;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
        }
        out.push_str(&format!("{namespace}/{name} {line}\n"));
    }
    out
}

/// Parses what [`render_errors`] wrote.
pub fn parse_errors(text: &str) -> BTreeMap<(String, String), String> {
    text.lines()
        .filter_map(|line| {
            let (key, message) = line.split_once(' ')?;
            let (namespace, name) = key.split_once('/')?;
            Some(((namespace.to_string(), name.to_string()), message.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_functions_own_pinned_artifact_is_its_own() {
        let digest = "ab".repeat(32);
        let own = format!("reg:5000/functions/apps/orders@sha256:{digest}");
        assert!(is_own_artifact(&own, "reg:5000/functions", "apps", "orders"));
        assert!(is_own_artifact(&own, "reg:5000/functions/", "apps", "orders"));
        for other in [
            format!("evil.example/functions/apps/orders@sha256:{digest}"),
            format!("reg:5000/functions/apps/billing@sha256:{digest}"),
            format!("reg:5000/functions/other/orders@sha256:{digest}"),
            "reg:5000/functions/apps/orders:latest".to_string(),
            "reg:5000/functions/apps/orders@sha256:../evil".to_string(),
            format!("reg:5000/functions/apps/orders@sha256:{}", "AB".repeat(32)),
            format!("reg:5000/functions/apps/orders/x@sha256:{digest}"),
        ] {
            assert!(
                !is_own_artifact(&other, "reg:5000/functions", "apps", "orders"),
                "{other}"
            );
        }
    }

    #[test]
    fn job_names_fit_and_differ_by_hash() {
        let long = "a".repeat(63);
        let name = build_job_name(&long, "0123456789abcdef");
        assert!(name.len() <= 63, "{name}");
        assert_ne!(build_job_name("f", "aaaaaaaaaaaa"), build_job_name("f", "bbbbbbbbbbbb"));
    }

    #[test]
    fn shards_spread_functions_evenly() {
        let mut counts = [0usize; NODE_STATUS_SHARDS];
        for i in 0..10_000 {
            counts[status_shard(&format!("ns-{}", i % 7), &format!("fn-{i}"))] += 1;
        }
        let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        assert!(*min > 250 && *max < 380, "{counts:?}");
        assert_eq!(
            node_status_name("shoal-node-7d9f-x2", 3),
            "shoal-node-shoal-node-7d9f-x2-03"
        );
    }

    #[test]
    fn served_round_trips() {
        let served: BTreeSet<_> = [("b", "y"), ("a", "x")]
            .into_iter()
            .map(|(ns, n)| ServedFunction {
                namespace: ns.into(),
                name: n.into(),
                digest: "sha256:00".into(),
            })
            .collect();
        let text = render_served(&served);
        assert_eq!(text, "a/x sha256:00\nb/y sha256:00\n");
        assert_eq!(parse_served(&text), served);
    }

    #[test]
    fn errors_round_trip_on_one_line_each() {
        let errors = BTreeMap::from([(
            ("apps".to_string(), "f".to_string()),
            "pulling r/f:\n  connection refused".to_string(),
        )]);
        let text = render_errors(&errors);
        assert_eq!(text, "apps/f pulling r/f: connection refused\n");
        assert_eq!(
            parse_errors(&text)[&("apps".to_string(), "f".to_string())],
            "pulling r/f: connection refused"
        );
    }
}

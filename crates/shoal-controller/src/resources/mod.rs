//! The objects the reconciler makes for a Function, as pure functions of the
//! Function and the controller's configuration (no I/O, so each is easy to
//! read and to test): what a build builds ([`plan`]: inline source or a Git
//! commit, its limits, whether the build service takes it), what a build
//! Job needs ([`build`]: the source ConfigMap, the Job, its way into the
//! registry) and what serving needs ([`serve`]:
//! the Service, the EndpointSlice, the node pods' read access).

mod build;
mod plan;
mod serve;

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::{Resource, ResourceExt};
use shoal_api::{Function, cluster};

pub use build::*;
pub use plan::*;
pub use serve::*;

/// Labels on everything made for `function`.
pub fn labels(function: &str, role: &str) -> BTreeMap<String, String> {
    BTreeMap::from([
        (cluster::MANAGED_BY_LABEL.to_string(), cluster::MANAGED_BY.to_string()),
        (cluster::FUNCTION_LABEL.to_string(), function.to_string()),
        (cluster::ROLE_LABEL.to_string(), role.to_string()),
    ])
}

/// Metadata for an object owned by (and deleted with) `function`.
pub(crate) fn owned_meta(function: &Function, name: String, role: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name),
        namespace: function.namespace(),
        labels: Some(labels(&function.name_any(), role)),
        owner_references: function.controller_owner_ref(&()).map(|r| vec![r]),
        ..ObjectMeta::default()
    }
}

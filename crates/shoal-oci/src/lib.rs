//! Shoal Function modules as OCI artifacts, in the CNCF Wasm layout: a config
//! of media type `application/vnd.wasm.config.v0+json` and one
//! `application/wasm` layer, with annotations naming the Function, the hash
//! of its source and the engine it was built for.
//!
//! This crate owns the artifact format and registry traffic (push, pull,
//! digest checks, auth), and the in-cluster registry's access control: the
//! tokens that let a build push its own Function's repository ([`token`])
//! and the gate in front of the registry that checks them ([`gate`]). It
//! does not build or run modules.

use std::collections::BTreeMap;

pub mod gate;
pub mod token;

use oci_client::{
    Client, Reference,
    client::{ClientConfig, ClientProtocol, Config, ImageLayer},
    manifest::{OciDescriptor, OciImageManifest},
    secrets::RegistryAuth,
};
use serde::{Deserialize, Serialize};

pub use oci_client::Reference as ArtifactReference;

/// Media type of the artifact config (CNCF Wasm OCI artifact layout).
pub const WASM_CONFIG_MEDIA_TYPE: &str = "application/vnd.wasm.config.v0+json";
/// Media type of the module layer.
pub const WASM_LAYER_MEDIA_TYPE: &str = "application/wasm";
/// Annotation: the Function's `namespace/name`.
pub const ANNOTATION_FUNCTION: &str = "dev.shoal.function";
/// Annotation: [`shoal_api::BuildInputs::hash`] of the source.
pub const ANNOTATION_SOURCE_HASH: &str = "dev.shoal.source.sha256";
/// Annotation: the engine the module was generated against.
pub const ANNOTATION_ENGINE: &str = "dev.shoal.engine.version";
const ANNOTATION_TITLE: &str = "org.opencontainers.image.title";
const ANNOTATION_CREATED: &str = "org.opencontainers.image.created";

/// Errors talking to a registry or checking what it sent.
#[derive(Debug, thiserror::Error)]
pub enum OciError {
    /// The reference does not parse.
    #[error("invalid artifact reference {reference:?}: {message}")]
    Reference {
        /// What was given.
        reference: String,
        /// Why it is wrong.
        message: String,
    },
    /// The registry could not be reached or refused the request.
    #[error("registry {registry}: {message}")]
    Registry {
        /// The registry host.
        registry: String,
        /// What went wrong.
        message: String,
    },
    /// The registry does not have the artifact (it answered 404, or
    /// MANIFEST_UNKNOWN, BLOB_UNKNOWN, NAME_UNKNOWN): lost with the
    /// registry's storage, or never pushed.
    #[error("registry {registry} does not have {reference}")]
    Missing {
        /// The registry host.
        registry: String,
        /// The artifact.
        reference: String,
    },
    /// The content does not match the digest it was asked for or described by.
    #[error("digest mismatch for {what}: expected {expected}, got {actual}")]
    DigestMismatch {
        /// The manifest or the layer.
        what: String,
        /// The digest that was asked for.
        expected: String,
        /// The digest of what arrived.
        actual: String,
    },
    /// The artifact is not a Shoal Wasm module.
    #[error("{0} is not a Wasm module artifact: {1}")]
    NotWasm(String, String),
    /// A digest is not `sha256:` and 64 lowercase hex digits.
    #[error("invalid digest {0:?}: Shoal artifacts are addressed by sha256:<64 hex digits>")]
    InvalidDigest(String),
    /// The module is larger than this node accepts, or than its manifest said.
    #[error("the module layer of {reference} is {what}, over the {limit}-byte limit")]
    TooLarge {
        /// The artifact.
        reference: String,
        /// How large it says it is, or that it sent more than it said.
        what: String,
        /// The limit it broke.
        limit: u64,
    },
}

/// The largest module a pull accepts unless told otherwise: well above any
/// Function (a statically linked one is about 9 MB), far below what would
/// hurt a node.
pub const DEFAULT_MAX_MODULE_BYTES: u64 = 128 << 20;

/// A checked `sha256:<64 lowercase hex>` digest, the only form Shoal
/// artifacts use. Its hex part is safe as a file name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Digest(String);

impl Digest {
    /// Checks a digest string.
    ///
    /// # Errors
    /// [`OciError::InvalidDigest`] for anything but `sha256:` and 64
    /// lowercase hex digits (other algorithms, upper case, `..`, slashes).
    pub fn parse(digest: &str) -> Result<Self, OciError> {
        let valid = digest.strip_prefix("sha256:").is_some_and(|hex| {
            hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        });
        if valid {
            Ok(Self(digest.to_string()))
        } else {
            Err(OciError::InvalidDigest(digest.chars().take(100).collect()))
        }
    }

    /// The 64 hex digits.
    pub fn hex(&self) -> &str {
        &self.0["sha256:".len()..]
    }

    /// `sha256:<hex>`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Registry credentials.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Credentials {
    /// No credentials.
    #[default]
    Anonymous,
    /// HTTP basic auth.
    Basic {
        /// User name.
        username: String,
        /// Password or token.
        password: String,
    },
}

impl Credentials {
    fn to_auth(&self) -> RegistryAuth {
        match self {
            Self::Anonymous => RegistryAuth::Anonymous,
            Self::Basic { username, password } => RegistryAuth::Basic(username.clone(), password.clone()),
        }
    }
}

/// Metadata recorded with a module.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ArtifactMetadata {
    /// `namespace/name` of the Function.
    pub function: String,
    /// Hash of the build inputs.
    pub source_hash: String,
    /// Engine version the module needs.
    pub engine_version: String,
}

/// The config blob (CNCF Wasm layout).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WasmConfig {
    created: String,
    author: String,
    architecture: String,
    os: String,
    layer_digests: Vec<String>,
}

/// A pushed artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pushed {
    /// `registry/repository@sha256:...`: the immutable reference.
    pub pinned: String,
    /// The manifest digest.
    pub digest: String,
}

/// A pulled module.
#[derive(Debug, Clone)]
pub struct Pulled {
    /// The module bytes (verified against the layer digest).
    pub wasm: Vec<u8>,
    /// The manifest as the registry sent it (its digest is `digest`), kept
    /// so that a cached copy can be verified again ([`Pulled::verify`]).
    pub manifest: Vec<u8>,
    /// The manifest digest (verified against the reference, if it had one).
    pub digest: String,
    /// Metadata from the manifest annotations.
    pub metadata: ArtifactMetadata,
}

/// Talks to OCI registries.
#[derive(Clone)]
pub struct Registry {
    client: Client,
    credentials: Credentials,
    max_module_bytes: u64,
}

/// Whether to speak plain HTTP.
#[derive(Debug, Clone, Default)]
pub enum Transport {
    /// HTTPS everywhere.
    #[default]
    Https,
    /// Plain HTTP everywhere (local registries).
    Http,
    /// HTTPS except for these `host:port` registries.
    HttpFor(Vec<String>),
}

impl Registry {
    /// A client with the given transport and credentials.
    pub fn new(transport: Transport, credentials: Credentials) -> Self {
        let protocol = match transport {
            Transport::Https => ClientProtocol::Https,
            Transport::Http => ClientProtocol::Http,
            Transport::HttpFor(hosts) => ClientProtocol::HttpsExcept(hosts),
        };
        let client = Client::new(ClientConfig {
            protocol,
            ..Default::default()
        });
        Self {
            client,
            credentials,
            max_module_bytes: DEFAULT_MAX_MODULE_BYTES,
        }
    }

    /// Refuses modules larger than `bytes` (default [`DEFAULT_MAX_MODULE_BYTES`]).
    pub fn with_max_module_bytes(mut self, bytes: u64) -> Self {
        self.max_module_bytes = bytes;
        self
    }

    /// A client that uses plain HTTP for loopback registries and for the
    /// `host:port` registries listed in `SHOAL_INSECURE_REGISTRIES`
    /// (comma-separated: an in-cluster registry reached by its Service), and
    /// HTTPS elsewhere, as `docker` does for `localhost`.
    pub fn for_reference(reference: &str, credentials: Credentials) -> Self {
        let insecure = std::env::var("SHOAL_INSECURE_REGISTRIES").unwrap_or_default();
        let transport = match parse(reference) {
            Ok(r)
                if is_loopback(r.registry())
                    || insecure
                        .split(',')
                        .map(str::trim)
                        .any(|h| !h.is_empty() && h == r.registry()) =>
            {
                Transport::HttpFor(vec![r.registry().to_string()])
            }
            _ => Transport::Https,
        };
        Self::new(transport, credentials)
    }

    /// Pushes a module, returning the digest-pinned reference.
    pub async fn push(&self, reference: &str, wasm: &[u8], metadata: &ArtifactMetadata) -> Result<Pushed, OciError> {
        let image = parse(reference)?;
        let layer = ImageLayer::new(wasm.to_vec(), WASM_LAYER_MEDIA_TYPE.to_string(), None);
        let layer_digest = sha256_digest(wasm);
        let created = build_timestamp();
        let config = WasmConfig {
            created: created.clone(),
            author: "shoal".into(),
            architecture: "wasm".into(),
            os: "wasip1".into(),
            layer_digests: vec![layer_digest],
        };
        let config_bytes =
            serde_json::to_vec(&config).map_err(|e| OciError::NotWasm(reference.into(), e.to_string()))?;
        let config = Config::new(config_bytes, WASM_CONFIG_MEDIA_TYPE.to_string(), None);
        let mut annotations = BTreeMap::new();
        annotations.insert(
            ANNOTATION_TITLE.to_string(),
            format!("{}.wasm", metadata.function.replace('/', "-")),
        );
        annotations.insert(ANNOTATION_CREATED.to_string(), created);
        annotations.insert(ANNOTATION_FUNCTION.to_string(), metadata.function.clone());
        annotations.insert(ANNOTATION_SOURCE_HASH.to_string(), metadata.source_hash.clone());
        annotations.insert(ANNOTATION_ENGINE.to_string(), metadata.engine_version.clone());
        let layers = [layer];
        let manifest = OciImageManifest::build(&layers, &config, Some(annotations));
        let manifest_bytes =
            serde_json::to_vec(&manifest).map_err(|e| OciError::NotWasm(reference.into(), e.to_string()))?;
        let digest = sha256_digest(&manifest_bytes);

        // Push blobs and then the exact manifest bytes hashed above, so the
        // digest returned is the digest the registry stores.
        let auth = self.credentials.to_auth();
        self.client.store_auth_if_needed(image.resolve_registry(), &auth).await;
        self.client
            .push_blob(&image, config.data.clone(), &manifest.config.digest)
            .await
            .map_err(|e| registry_error(&image, e))?;
        for (layer, descriptor) in layers.iter().zip(&manifest.layers) {
            self.client
                .push_blob(&image, layer.data.clone(), &descriptor.digest)
                .await
                .map_err(|e| registry_error(&image, e))?;
        }
        if let Some(asked) = image.digest()
            && asked != digest
        {
            return Err(OciError::DigestMismatch {
                what: format!("the manifest pushed to {reference}"),
                expected: asked.into(),
                actual: digest,
            });
        }
        self.client
            .push_manifest_raw(
                &image,
                manifest_bytes,
                http::HeaderValue::from_static(oci_client::manifest::OCI_IMAGE_MEDIA_TYPE),
            )
            .await
            .map_err(|e| registry_error(&image, e))?;
        Ok(Pushed {
            pinned: format!("{}/{}@{digest}", image.registry(), image.repository()),
            digest,
        })
    }

    /// The artifact a tag already names, with its metadata, or `None` when
    /// the registry has no such tag: a build service asks before building,
    /// so a build whose push outlived its answer is not built again.
    ///
    /// # Errors
    /// [`OciError`]: the reference is malformed, the registry fails, or
    /// what the tag names is not a Wasm artifact.
    pub async fn find_pushed(&self, reference: &str) -> Result<Option<(Pushed, ArtifactMetadata)>, OciError> {
        let image = parse(reference)?;
        let auth = self.credentials.to_auth();
        let manifest_bytes = match self
            .client
            .pull_manifest_raw(&image, &auth, &[oci_client::manifest::OCI_IMAGE_MEDIA_TYPE])
            .await
            .map_err(|e| registry_error(&image, e))
        {
            Ok((bytes, _)) => bytes,
            Err(OciError::Missing { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        let (digest, manifest, _) = check_manifest(reference, &manifest_bytes, [None, None])?;
        Ok(Some((
            Pushed {
                pinned: format!("{}/{}@{digest}", image.registry(), image.repository()),
                digest,
            },
            metadata_of(manifest),
        )))
    }

    /// Pulls a module by tag or digest. The manifest must match the
    /// reference's digest (when it has one) and `expected_digest` (when
    /// given); the layer must match its descriptor. Every digest involved is
    /// checked for form first, and the layer's size is checked against the
    /// limit before anything is allocated for it.
    ///
    /// # Errors
    /// [`OciError`]: the reference or a digest is malformed, the registry
    /// fails, a digest does not match, the module is over the size limit or
    /// sends more than its manifest declared, or it is not a Wasm artifact.
    pub async fn pull(&self, reference: &str, expected_digest: Option<&str>) -> Result<Pulled, OciError> {
        let image = parse(reference)?;
        if let Some(d) = image.digest() {
            Digest::parse(d)?;
        }
        if let Some(d) = expected_digest {
            Digest::parse(d)?;
        }
        let auth = self.credentials.to_auth();
        let (manifest_bytes, _) = self
            .client
            .pull_manifest_raw(
                &image,
                &auth,
                &[
                    oci_client::manifest::OCI_IMAGE_MEDIA_TYPE,
                    oci_client::manifest::IMAGE_MANIFEST_MEDIA_TYPE,
                ],
            )
            .await
            .map_err(|e| registry_error(&image, e))?;
        let (digest, manifest, layer) = check_manifest(reference, &manifest_bytes, [image.digest(), expected_digest])?;
        let limit = layer_limit(reference, &layer, self.max_module_bytes)?;
        let mut sink = BoundedSink::new(limit);
        self.client
            .pull_blob(&image, &layer, &mut sink)
            .await
            .map_err(|e| match sink.overflowed {
                true => OciError::TooLarge {
                    reference: reference.into(),
                    what: "larger than its manifest says".into(),
                    limit: limit as u64,
                },
                false => registry_error(&image, e),
            })?;
        let wasm = sink.bytes;
        check_layer(reference, &layer, &wasm)?;
        Ok(Pulled {
            wasm,
            manifest: manifest_bytes.to_vec(),
            digest,
            metadata: metadata_of(manifest),
        })
    }
}

/// Checks a module kept from an earlier pull (a node's artifact cache) as
/// [`Registry::pull`] checks one from the registry: the manifest against
/// `expected_digest`, the module against the manifest's layer (at most
/// [`DEFAULT_MAX_MODULE_BYTES`]). Needs no registry client.
///
/// # Errors
/// As for [`Registry::pull`], without the registry's.
pub fn verify_cached(
    reference: &str,
    expected_digest: &str,
    manifest: &[u8],
    wasm: Vec<u8>,
) -> Result<Pulled, OciError> {
    Digest::parse(expected_digest)?;
    let (digest, parsed, layer) = check_manifest(reference, manifest, [Some(expected_digest), None])?;
    layer_limit(reference, &layer, DEFAULT_MAX_MODULE_BYTES)?;
    check_layer(reference, &layer, &wasm)?;
    Ok(Pulled {
        wasm,
        manifest: manifest.to_vec(),
        digest,
        metadata: metadata_of(parsed),
    })
}

/// The manifest's digest (checked against each expectation), the manifest
/// and its one Wasm layer.
fn check_manifest(
    reference: &str,
    manifest_bytes: &[u8],
    expected: [Option<&str>; 2],
) -> Result<(String, OciImageManifest, OciDescriptor), OciError> {
    let actual = sha256_digest(manifest_bytes);
    for expected in expected.into_iter().flatten() {
        if expected != actual {
            return Err(OciError::DigestMismatch {
                what: format!("the manifest of {reference}"),
                expected: expected.to_string(),
                actual,
            });
        }
    }
    let manifest: OciImageManifest = serde_json::from_slice(manifest_bytes)
        .map_err(|e| OciError::NotWasm(reference.into(), format!("manifest: {e}")))?;
    if manifest.config.media_type != WASM_CONFIG_MEDIA_TYPE {
        return Err(OciError::NotWasm(
            reference.into(),
            format!("config media type is {}", manifest.config.media_type),
        ));
    }
    let layer = match manifest.layers.as_slice() {
        [one] if one.media_type == WASM_LAYER_MEDIA_TYPE => one.clone(),
        _ => {
            return Err(OciError::NotWasm(
                reference.into(),
                format!("expected one {WASM_LAYER_MEDIA_TYPE} layer"),
            ));
        }
    };
    Digest::parse(&layer.digest)?;
    Ok((actual, manifest, layer))
}

/// The layer's declared size, when it is within `max` bytes.
fn layer_limit(reference: &str, layer: &OciDescriptor, max: u64) -> Result<usize, OciError> {
    u64::try_from(layer.size)
        .ok()
        .filter(|size| *size <= max)
        .and_then(|size| usize::try_from(size).ok())
        .ok_or_else(|| OciError::TooLarge {
            reference: reference.into(),
            what: format!("{} bytes by its manifest", layer.size),
            limit: max,
        })
}

/// The module bytes must be the layer its manifest describes.
fn check_layer(reference: &str, layer: &OciDescriptor, wasm: &[u8]) -> Result<(), OciError> {
    let actual = sha256_digest(wasm);
    if actual != layer.digest {
        return Err(OciError::DigestMismatch {
            what: format!("the module layer of {reference}"),
            expected: layer.digest.clone(),
            actual,
        });
    }
    Ok(())
}

fn metadata_of(manifest: OciImageManifest) -> ArtifactMetadata {
    let annotations = manifest.annotations.unwrap_or_default();
    let get = |k: &str| annotations.get(k).cloned().unwrap_or_default();
    ArtifactMetadata {
        function: get(ANNOTATION_FUNCTION),
        source_hash: get(ANNOTATION_SOURCE_HASH),
        engine_version: get(ANNOTATION_ENGINE),
    }
}

/// Collects a blob, refusing to hold more than the manifest declared: a
/// registry cannot make the node allocate what it did not admit to.
struct BoundedSink {
    bytes: Vec<u8>,
    limit: usize,
    overflowed: bool,
}

impl BoundedSink {
    fn new(limit: usize) -> Self {
        Self {
            // The declared size is within the node's limit: allocate it once.
            bytes: Vec::with_capacity(limit),
            limit,
            overflowed: false,
        }
    }
}

impl tokio::io::AsyncWrite for BoundedSink {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        if buf.len() > self.limit.saturating_sub(self.bytes.len()) {
            self.overflowed = true;
            return std::task::Poll::Ready(Err(std::io::Error::other("the blob is larger than its manifest says")));
        }
        self.bytes.extend_from_slice(buf);
        std::task::Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

fn parse(reference: &str) -> Result<Reference, OciError> {
    reference.parse::<Reference>().map_err(|e| OciError::Reference {
        reference: reference.to_string(),
        message: e.to_string(),
    })
}

fn is_loopback(registry: &str) -> bool {
    let host = registry.rsplit_once(':').map_or(registry, |(h, _)| h);
    host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host.starts_with("127.")
}

fn registry_error(image: &Reference, e: oci_client::errors::OciDistributionError) -> OciError {
    use oci_client::errors::{OciDistributionError as E, OciErrorCode as Code};
    let missing = match &e {
        E::ImageManifestNotFoundError(_) => true,
        E::ServerError { code, .. } => *code == 404,
        E::RegistryError { envelope, .. } => envelope.errors.iter().any(|error| {
            matches!(
                error.code,
                Code::ManifestUnknown | Code::BlobUnknown | Code::NameUnknown | Code::ManifestBlobUnknown
            )
        }),
        _ => false,
    };
    if missing {
        return OciError::Missing {
            registry: image.registry().to_string(),
            reference: image.whole(),
        };
    }
    let mut message = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    OciError::Registry {
        registry: image.registry().to_string(),
        message,
    }
}

/// `sha256:<hex>` of some bytes, as OCI writes digests.
pub fn sha256_digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

/// The `created` time written into artifacts: `SOURCE_DATE_EPOCH` when set
/// (the reproducible-builds convention), else the Unix epoch. Never the
/// wall clock: the same module must give the same manifest digest, or every
/// rebuild looks like a new version to the nodes and their caches.
fn build_timestamp() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(0);
    rfc3339(secs)
}

fn rfc3339(secs: u64) -> String {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    // Civil date from days since the epoch (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{m:02}:{s:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sha256_digests_in_canonical_form_are_accepted() {
        let good = format!("sha256:{}", "0123456789abcdef".repeat(4));
        assert_eq!(Digest::parse(&good).unwrap().hex(), "0123456789abcdef".repeat(4));
        for bad in [
            "sha256:../evil".to_string(),
            format!("sha256:{}", "A".repeat(64)),
            format!("sha512:{}", "a".repeat(64)),
            format!("sha256:{}", "a".repeat(63)),
            format!("sha256:{}/x", "a".repeat(62)),
            String::new(),
        ] {
            assert!(matches!(Digest::parse(&bad), Err(OciError::InvalidDigest(_))), "{bad}");
        }
    }

    #[test]
    fn a_sink_refuses_more_than_it_was_told() {
        use tokio::io::AsyncWriteExt;
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            let mut sink = BoundedSink::new(4);
            sink.write_all(b"1234").await.unwrap();
            assert!(sink.write_all(b"5").await.is_err());
            assert!(sink.overflowed);
        });
    }

    #[test]
    fn loopback_registries_are_recognised() {
        assert!(is_loopback("127.0.0.1:5000"));
        assert!(is_loopback("localhost:5000"));
        assert!(!is_loopback("ghcr.io"));
    }

    #[test]
    fn timestamps_are_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }
}

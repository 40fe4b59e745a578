//! Push/pull round trips against a real registry server (Debian's
//! docker-registry on 127.0.0.1).

use shoal_oci::{ArtifactMetadata, Credentials, OciError, Registry, Transport};
use shoal_tests::{TestRegistry, free_port};

fn metadata() -> ArtifactMetadata {
    ArtifactMetadata {
        function: "default/hello".into(),
        source_hash: "abc123".into(),
        engine_version: shoal_engine_version(),
        linking: "dynamic".into(),
    }
}

fn shoal_engine_version() -> String {
    "shoal_engine_v1+test".into()
}

const MODULE: &[u8] = b"\0asm\x01\0\0\0 pretend module bytes";

#[tokio::test]
async fn push_then_pull_by_tag_and_by_digest() {
    let server = TestRegistry::start(None);
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let reference = format!("{}/functions/hello:v1", server.address);
    let pushed = registry.push(&reference, MODULE, &metadata()).await.unwrap();
    assert!(pushed.digest.starts_with("sha256:"));
    assert_eq!(
        pushed.pinned,
        format!("{}/functions/hello@{}", server.address, pushed.digest)
    );

    let by_tag = registry.pull(&reference, None).await.unwrap();
    assert_eq!(by_tag.wasm, MODULE);
    assert_eq!(by_tag.digest, pushed.digest);
    assert_eq!(by_tag.metadata, metadata());

    let by_digest = registry.pull(&pushed.pinned, None).await.unwrap();
    assert_eq!(by_digest.wasm, MODULE);

    let expected = registry.pull(&reference, Some(&pushed.digest)).await.unwrap();
    assert_eq!(expected.digest, pushed.digest);
}

#[tokio::test]
async fn a_wrong_digest_is_refused() {
    let server = TestRegistry::start(None);
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let reference = format!("{}/functions/hello:v1", server.address);
    let first = registry.push(&reference, MODULE, &metadata()).await.unwrap();
    // The tag moves to other content: a node expecting the first digest must refuse it.
    registry
        .push(&reference, b"\0asm\x01\0\0\0 other", &metadata())
        .await
        .unwrap();
    let err = registry.pull(&reference, Some(&first.digest)).await.unwrap_err();
    assert!(matches!(err, OciError::DigestMismatch { .. }), "{err:?}");
    assert!(err.to_string().contains(&first.digest), "{err}");

    let bogus = format!("{}/functions/hello@sha256:{}", server.address, "0".repeat(64));
    let err = registry.pull(&bogus, None).await.unwrap_err();
    assert!(matches!(err, OciError::Registry { .. }), "{err:?}");
}

#[tokio::test]
async fn the_artifact_uses_the_cncf_wasm_layout() {
    let server = TestRegistry::start(None);
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let reference = format!("{}/functions/layout:v1", server.address);
    registry.push(&reference, MODULE, &metadata()).await.unwrap();
    // Read the manifest straight from the registry's HTTP API.
    let manifest = http_get_json(
        &server.address,
        "/v2/functions/layout/manifests/v1",
        "application/vnd.oci.image.manifest.v1+json",
    );
    assert_eq!(manifest["config"]["mediaType"], "application/vnd.wasm.config.v0+json");
    assert_eq!(manifest["layers"][0]["mediaType"], "application/wasm");
    assert_eq!(manifest["annotations"]["dev.shoal.function"], "default/hello");
    assert_eq!(manifest["annotations"]["dev.shoal.source.sha256"], "abc123");
    assert_eq!(
        manifest["annotations"]["dev.shoal.engine.version"],
        "shoal_engine_v1+test"
    );
}

#[tokio::test]
async fn basic_auth_is_used_and_required() {
    // bcrypt of "s3cret" (cost 5).
    let hash = "$2b$05$KgS4SR0CvrHXsyDjAJ4glugrBWt.uiAATQmfqXs6/UsoRh4r1wf.i";
    let server = TestRegistry::start(Some(("shoal", hash)));
    let reference = format!("{}/functions/private:v1", server.address);
    let anonymous = Registry::new(Transport::Http, Credentials::Anonymous);
    let err = anonymous.push(&reference, MODULE, &metadata()).await.unwrap_err();
    assert!(matches!(err, OciError::Registry { .. }), "{err:?}");

    let authed = Registry::new(
        Transport::Http,
        Credentials::Basic {
            username: "shoal".into(),
            password: "s3cret".into(),
        },
    );
    authed.push(&reference, MODULE, &metadata()).await.unwrap();
    assert_eq!(authed.pull(&reference, None).await.unwrap().wasm, MODULE);
}

#[tokio::test]
async fn an_unreachable_registry_is_a_clear_error() {
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let reference = format!("127.0.0.1:{}/functions/hello:v1", free_port());
    let err = registry.push(&reference, MODULE, &metadata()).await.unwrap_err();
    let message = err.to_string();
    assert!(message.starts_with("registry 127.0.0.1:"), "{message}");
    assert!(message.to_lowercase().contains("connect"), "{message}");
}

fn http_get_json(address: &str, path: &str, accept: &str) -> serde_json::Value {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {response}"))
}

/// A registry under a tenant's control (an attack from the isolation
/// issue): it answers with the manifest and blob it is given, whatever
/// they claim. Plain HTTP on 127.0.0.1.
fn hostile_registry(manifest: serde_json::Value, blob: Vec<u8>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let manifest = serde_json::to_vec(&manifest).unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request_line = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            // Skip the headers.
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request_line.split_whitespace().nth(1).unwrap_or("").to_string();
            let (content_type, body): (&str, &[u8]) = if path.contains("/manifests/") {
                ("application/vnd.oci.image.manifest.v1+json", &manifest)
            } else if path.contains("/blobs/") {
                ("application/octet-stream", &blob)
            } else {
                ("application/json", b"{}")
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(body);
        }
    });
    address
}

fn wasm_manifest(layer_size: u64, layer_digest: &str) -> serde_json::Value {
    serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.wasm.config.v0+json", "size": 2,
                   "digest": shoal_oci::sha256_digest(b"{}")},
        "layers": [{"mediaType": "application/wasm", "size": layer_size, "digest": layer_digest}]
    })
}

/// A manifest declaring a terabyte-sized module is refused before anything
/// is allocated for it (it aborted the node when the size was trusted).
#[tokio::test]
async fn a_module_declared_larger_than_the_limit_is_refused_before_allocating() {
    let digest = shoal_oci::sha256_digest(MODULE);
    let address = hostile_registry(wasm_manifest(1 << 40, &digest), MODULE.to_vec());
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let err = registry.pull(&format!("{address}/evil:v1"), None).await.unwrap_err();
    assert!(
        matches!(&err, OciError::TooLarge { .. }) && err.to_string().contains("1099511627776 bytes by its manifest"),
        "{err}"
    );
}

/// A registry that sends more than the manifest declared is cut off at the
/// declared size.
#[tokio::test]
async fn a_blob_longer_than_its_manifest_says_is_cut_off() {
    let blob = vec![7u8; 4 << 20];
    let address = hostile_registry(wasm_manifest(16, &shoal_oci::sha256_digest(&blob)), blob);
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let err = registry.pull(&format!("{address}/evil:v1"), None).await.unwrap_err();
    assert!(
        matches!(&err, OciError::TooLarge { .. }) && err.to_string().contains("larger than its manifest says"),
        "{err}"
    );
}

/// Digests are only ever `sha256:` and 64 lowercase hex digits, wherever
/// they come from: a reference, an expectation or a manifest's layer (a
/// digest became a cache path, so `..` once reached outside the cache).
#[tokio::test]
async fn malformed_digests_are_refused_wherever_they_appear() {
    let address = hostile_registry(
        wasm_manifest(MODULE.len() as u64, "sha256:../../etc/passwd"),
        MODULE.to_vec(),
    );
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let err = registry.pull(&format!("{address}/evil:v1"), None).await.unwrap_err();
    assert!(matches!(err, OciError::InvalidDigest(_)), "{err}");
    let err = registry
        .pull(&format!("{address}/evil:v1"), Some("sha256:../evil"))
        .await
        .unwrap_err();
    assert!(matches!(err, OciError::InvalidDigest(_)), "{err}");
}

/// A cached copy is verified as a pull is: a module swapped on disk is
/// refused.
#[tokio::test]
async fn a_cached_module_is_verified_again() {
    let server = TestRegistry::start(None);
    let registry = Registry::new(Transport::Http, Credentials::Anonymous);
    let reference = format!("{}/functions/hello:v1", server.address);
    let pushed = registry.push(&reference, MODULE, &metadata()).await.unwrap();
    let pulled = registry.pull(&pushed.pinned, Some(&pushed.digest)).await.unwrap();
    let again = shoal_oci::verify_cached(&pushed.pinned, &pushed.digest, &pulled.manifest, pulled.wasm.clone())
        .expect("an intact copy verifies");
    assert_eq!(again.wasm, MODULE);
    let err = shoal_oci::verify_cached(
        &pushed.pinned,
        &pushed.digest,
        &pulled.manifest,
        b"\0asm tampered".to_vec(),
    )
    .unwrap_err();
    assert!(matches!(err, OciError::DigestMismatch { .. }), "{err}");
}

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

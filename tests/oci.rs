//! Push/pull round trips against a real registry server (Debian's
//! docker-registry on 127.0.0.1).

use shoal_oci::{ArtifactMetadata, Credentials, OciError, Registry, Transport};
use shoal_tests::{TestRegistry, free_port};

fn metadata() -> ArtifactMetadata {
    ArtifactMetadata {
        function: "default/hello".into(),
        source_hash: "abc123".into(),
        engine_version: shoal_engine_version(),
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

    // What the registry does not have (lost with its storage, or never
    // pushed) is its own error, which makes the controller build it again.
    for missing in [
        format!("{}/functions/hello@sha256:{}", server.address, "0".repeat(64)),
        format!("{}/functions/never-pushed@sha256:{}", server.address, "0".repeat(64)),
    ] {
        let err = registry.pull(&missing, None).await.unwrap_err();
        assert!(matches!(err, OciError::Missing { .. }), "{missing}: {err:?}");
        assert!(err.to_string().contains("does not have"), "{err}");
    }
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

/// A raw request through the gate: its status line's code.
fn gate_status(address: &str, method: &str, path: &str, authorization: Option<&str>) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let auth = authorization.map_or(String::new(), |a| format!("Authorization: {a}\r\n"));
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\n{auth}Content-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let code = response.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, response)
}

fn basic(user: &str, password: &str) -> String {
    use base64::Engine as _;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

/// The in-cluster registry behind its gate (the isolation issue's fifth
/// finding: every tenant's modules were readable and deletable). A build's
/// token pushes its own Function's repository and nothing else; the node
/// pods' password pulls any Function's module and pushes nothing; nobody
/// deletes, lists the catalog or mounts a blob from another repository;
/// without credentials the gate asks for them, and a forged or expired
/// token is refused. The registry behind allows deletes: the gate decides.
// Multi-threaded: the raw requests below block their thread while the
// gate answers on another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_registry_gate_lets_each_caller_do_only_its_own_part() {
    use shoal_oci::gate::{Gate, GateConfig, NODE_USER};
    use shoal_oci::token::{Grant, TokenKey};

    let upstream = TestRegistry::start(None);
    let key = TokenKey::new(&[7u8; 32]).unwrap();
    let node_password = "node-password-0123456789";
    let gate = Gate::new(GateConfig {
        upstream: upstream.address.parse().unwrap(),
        repository_prefix: "functions".into(),
        node_password: node_password.into(),
        key: key.clone(),
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let serving = tokio::spawn(gate.serve(listener, futures::future::pending::<()>()));

    let token = |repository: &str, expires: u64| {
        key.mint(&Grant {
            repository: repository.into(),
            expires,
        })
    };
    let build = |token: String| {
        Registry::new(
            Transport::Http,
            Credentials::Basic {
                username: "shoal-build".into(),
                password: token,
            },
        )
    };
    let in_an_hour = shoal_oci::token::now() + 3600;
    let own = format!("{address}/functions/orders/hello:v1");
    let other = format!("{address}/functions/shop/cart:v1");

    // A build pushes its own repository, and not another tenant's.
    let builder = build(token("functions/orders/hello", in_an_hour));
    let pushed = builder.push(&own, MODULE, &metadata()).await.unwrap();
    let err = builder.push(&other, MODULE, &metadata()).await.unwrap_err();
    assert!(
        err.to_string().contains("403") || err.to_string().to_lowercase().contains("denied"),
        "{err}"
    );
    // Another tenant's build cannot read the first one's module.
    let neighbour = build(token("functions/shop/cart", in_an_hour));
    neighbour.push(&other, MODULE, &metadata()).await.unwrap();
    assert!(neighbour.pull(&pushed.pinned, None).await.is_err());

    // The node pods pull any Function's module, and push nothing.
    let node = Registry::new(
        Transport::Http,
        Credentials::Basic {
            username: NODE_USER.into(),
            password: node_password.into(),
        },
    );
    assert_eq!(node.pull(&pushed.pinned, None).await.unwrap().wasm, MODULE);
    assert!(node.push(&own, b"\0asm\x01\0\0\0 replaced", &metadata()).await.is_err());

    // Without credentials: asked for them. Forged, expired or wrong ones: refused.
    let (code, response) = gate_status(&address, "GET", "/v2/", None);
    assert_eq!(code, 401, "{response}");
    assert!(
        response.contains("WWW-Authenticate: Basic") || response.contains("www-authenticate: Basic"),
        "{response}"
    );
    assert!(
        Registry::new(Transport::Http, Credentials::Anonymous)
            .pull(&pushed.pinned, None)
            .await
            .is_err()
    );
    let expired = build(token("functions/orders/hello", shoal_oci::token::now() - 1));
    assert!(expired.pull(&pushed.pinned, None).await.is_err());
    let forged = TokenKey::new(&[8u8; 32]).unwrap().mint(&Grant {
        repository: "functions/orders/hello".into(),
        expires: in_an_hour,
    });
    assert!(build(forged).pull(&pushed.pinned, None).await.is_err());
    assert_eq!(
        gate_status(&address, "GET", "/v2/", Some(&basic(NODE_USER, "guess"))).0,
        401
    );

    // Nobody deletes, lists the catalog, or mounts another repository's blob.
    let digest = pushed.digest.clone();
    for authorization in [
        basic(NODE_USER, node_password),
        basic("shoal-build", &token("functions/orders/hello", in_an_hour)),
    ] {
        let (code, _) = gate_status(
            &address,
            "DELETE",
            &format!("/v2/functions/orders/hello/manifests/{digest}"),
            Some(&authorization),
        );
        assert_eq!(code, 403);
        assert_eq!(
            gate_status(&address, "GET", "/v2/_catalog", Some(&authorization)).0,
            403
        );
    }
    let (code, _) = gate_status(
        &address,
        "POST",
        &format!("/v2/functions/shop/cart/blobs/uploads/?mount={digest}&from=functions%2Forders%2Fhello"),
        Some(&basic("shoal-build", &token("functions/shop/cart", in_an_hour))),
    );
    assert_eq!(code, 403);
    // What was pushed is still there.
    assert_eq!(node.pull(&pushed.pinned, None).await.unwrap().digest, digest);
    assert_eq!(gate_status(&address, "GET", "/healthz", None).0, 200);
    serving.abort();
}

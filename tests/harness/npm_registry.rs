//! A small npm registry on 127.0.0.1: real package tarballs made by
//! `npm pack`, an optional token every request must carry, and tarball
//! downloads a test can hold back (a build caught in `npm install`) and
//! count.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use tokio::sync::watch;

/// One package version to serve.
pub struct Package<'a> {
    /// Its name, scoped or not (`@acme/greet`).
    pub name: &'a str,
    /// Its version.
    pub version: &'a str,
    /// Its files besides package.json (which is made from the above, with
    /// `main: index.js`).
    pub files: &'a [(&'a str, &'a str)],
}

struct Served {
    name: String,
    version: String,
    tarball: Bytes,
}

/// The registry; stopped when dropped.
pub struct TestNpmRegistry {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    refused: Arc<AtomicUsize>,
    tarballs: Arc<AtomicUsize>,
    held: watch::Sender<Held>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

fn pack(package: &Package<'_>, dir: &Path) -> Bytes {
    let manifest = serde_json::json!({"name": package.name, "version": package.version, "main": "index.js"});
    std::fs::write(dir.join("package.json"), manifest.to_string()).expect("writing package.json");
    for (path, content) in package.files {
        std::fs::write(dir.join(path), content).expect("writing a package file");
    }
    let packed = Command::new("npm")
        .args(["pack", "--silent"])
        .current_dir(dir)
        .output()
        .expect("npm pack");
    let file = String::from_utf8_lossy(&packed.stdout).trim().to_string();
    Bytes::from(std::fs::read(dir.join(&file)).expect("the packed tarball"))
}

impl TestNpmRegistry {
    /// Serves `packages`; with `token`, only requests carrying it.
    pub fn start(packages: &[Package<'_>], token: Option<&'static str>) -> Self {
        let served: Arc<Vec<Served>> = Arc::new(
            packages
                .iter()
                .map(|p| {
                    let dir = tempfile::tempdir().expect("temp dir");
                    Served {
                        name: p.name.to_string(),
                        version: p.version.to_string(),
                        tarball: pack(p, dir.path()),
                    }
                })
                .collect(),
        );
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binding the npm registry");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let refused = Arc::new(AtomicUsize::new(0));
        let tarballs = Arc::new(AtomicUsize::new(0));
        let (held, hold) = watch::channel(Held::None);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let state = (served, url.clone(), refused.clone(), tarballs.clone(), hold);
        // Its own thread and runtime, so sync and async tests can use it.
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let serving = crate::serve_http(listener, state, move |req, state| answer(req, token, state));
                let _ = stopped.await;
                serving.abort();
            });
        });
        Self {
            url,
            refused,
            tarballs,
            held,
            _stop: stop,
        }
    }

    /// Tarball downloads wait until [`Self::release_tarballs`].
    pub fn hold_tarballs(&self) {
        self.held.send_replace(Held::All);
    }

    /// Held tarball downloads go on, and later ones are not held.
    pub fn release_tarballs(&self) {
        self.held.send_replace(Held::None);
    }

    /// Held downloads of `package` go on; the others stay held.
    pub fn release_tarballs_matching(&self, package: &str) {
        self.held.send_replace(Held::AllBut(package.to_string()));
    }

    /// Tarball downloads asked for so far (held ones included).
    pub fn tarball_requests(&self) -> usize {
        self.tarballs.load(Ordering::SeqCst)
    }

    /// Requests refused for want of the token since the last call.
    pub fn take_refused(&self) -> usize {
        self.refused.swap(0, Ordering::SeqCst)
    }
}

/// Which tarball downloads wait.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Held {
    None,
    All,
    AllBut(String),
}

impl Held {
    fn holds(&self, path: &str) -> bool {
        match self {
            Held::None => false,
            Held::All => true,
            Held::AllBut(package) => !path.starts_with(&format!("/{package}/-/")),
        }
    }
}

type State = (
    Arc<Vec<Served>>,
    String,
    Arc<AtomicUsize>,
    Arc<AtomicUsize>,
    watch::Receiver<Held>,
);

async fn answer(
    req: hyper::Request<hyper::body::Incoming>,
    token: Option<&'static str>,
    (served, url, refused, tarballs, mut hold): State,
) -> hyper::Response<http_body_util::Full<Bytes>> {
    let authorized = token.is_none_or(|token| {
        req.headers()
            .get("authorization")
            .is_some_and(|v| v.to_str().ok() == Some(&format!("Bearer {token}")))
    });
    // npm asks for a scoped package as /@scope%2fname.
    let path = req.uri().path().replace("%2f", "/").replace("%2F", "/");
    let (status, body) = if !authorized {
        refused.fetch_add(1, Ordering::SeqCst);
        (401, Bytes::from_static(b"{\"error\":\"authentication required\"}"))
    } else if path.ends_with(".tgz") {
        tarballs.fetch_add(1, Ordering::SeqCst);
        let _ = hold.wait_for(|held| !held.holds(&path)).await;
        match served.iter().find(|p| path.starts_with(&format!("/{}/-/", p.name))) {
            Some(package) => (200, package.tarball.clone()),
            None => (404, Bytes::from_static(b"{}")),
        }
    } else {
        match served.iter().find(|p| path == format!("/{}", p.name)) {
            Some(p) => {
                let file = p.name.rsplit('/').next().unwrap_or(&p.name);
                let doc = serde_json::json!({"name": p.name, "dist-tags": {"latest": p.version},
                    "versions": {p.version.clone(): {"name": p.name, "version": p.version, "main": "index.js",
                        "dist": {"tarball": format!("{url}/{}/-/{file}-{}.tgz", p.name, p.version)}}}});
                (200, Bytes::from(doc.to_string()))
            }
            None => (404, Bytes::from_static(b"{}")),
        }
    };
    hyper::Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(http_body_util::Full::new(body))
        .unwrap_or_default()
}

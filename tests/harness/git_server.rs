//! Real Git servers on 127.0.0.1 for the Git-source tests: Git's own smart
//! HTTP server (`git http-backend`, run as CGI behind a small hyper server
//! that asks for basic auth) and OpenSSH's `sshd` with one authorized key.
//! Both serve bare repositories in a temporary folder, which tests fill
//! with [`Repo`].

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use base64::Engine;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response, StatusCode};

fn git(cwd: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", cwd)
        .output()
        .expect("running git");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// A bare repository and a working copy that commits and pushes to it.
pub struct Repo {
    /// The bare repository (what servers serve).
    pub bare: PathBuf,
    work: PathBuf,
}

impl Repo {
    /// An empty repository `name` under `root`, default branch `main`.
    pub fn create(root: &Path, name: &str) -> Self {
        let bare = root.join(name);
        std::fs::create_dir_all(&bare).unwrap();
        git(&bare, &["init", "--quiet", "--bare", "--initial-branch=main"]);
        // Fetching one commit by id, as builds do.
        git(&bare, &["config", "uploadpack.allowAnySHA1InWant", "true"]);
        let work = root.join(format!("{name}.work"));
        std::fs::create_dir_all(&work).unwrap();
        git(&work, &["init", "--quiet", "--initial-branch=main"]);
        git(&work, &["config", "user.email", "dev@example.com"]);
        git(&work, &["config", "user.name", "Dev"]);
        Self { bare, work }
    }

    /// Writes `files` (path, content), commits them to `main`, pushes, and
    /// returns the commit.
    pub fn commit(&self, files: &[(&str, &str)], message: &str) -> String {
        for (path, content) in files {
            let file = self.work.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, content).unwrap();
        }
        git(&self.work, &["add", "--all"]);
        git(&self.work, &["commit", "--quiet", "-m", message]);
        git(
            &self.work,
            &["push", "--quiet", "--force", self.bare.to_str().unwrap(), "main"],
        );
        git(&self.work, &["rev-parse", "HEAD"])
    }

    /// Tags the current commit and pushes the tag.
    pub fn tag(&self, tag: &str) {
        git(&self.work, &["tag", "-a", tag, "-m", tag]);
        git(&self.work, &["push", "--quiet", self.bare.to_str().unwrap(), tag]);
    }
}

/// `git http-backend` behind basic auth.
pub struct GitHttpServer {
    /// `http://127.0.0.1:PORT`; a repository `NAME` is at `{base}/NAME`.
    pub base: String,
    /// Where the bare repositories are.
    pub root: tempfile::TempDir,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for GitHttpServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl GitHttpServer {
    /// Serves repositories under a new temporary folder to `username` with
    /// `password`; anyone else gets 401.
    pub async fn start(username: &str, password: &str) -> Self {
        let root = tempfile::tempdir().expect("temp dir");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let expected = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"))
        );
        let state = Arc::new((root.path().to_path_buf(), expected));
        let task = crate::serve_http(listener, state, |req, state: Arc<(PathBuf, String)>| async move {
            cgi(req, &state.0, &state.1).await
        });
        Self { base, root, task }
    }
}

/// One request through `git http-backend` (CGI).
async fn cgi(req: Request<hyper::body::Incoming>, root: &Path, expected: &str) -> Response<Full<Bytes>> {
    let authorized = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == expected);
    if !authorized {
        return Response::builder()
            .status(StatusCode::UNAUTHORIZED)
            .header("www-authenticate", "Basic realm=\"git\"")
            .body(Full::new(Bytes::from_static(b"authentication required\n")))
            .unwrap();
    }
    let method = req.method().to_string();
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let (content_type, encoding, protocol) = (
        header("content-type"),
        header("content-encoding"),
        header("git-protocol"),
    );
    let body = req
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let root = root.to_path_buf();
    let output = tokio::task::spawn_blocking(move || {
        let mut child = Command::new("git")
            .arg("http-backend")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("GIT_PROJECT_ROOT", &root)
            .env("GIT_HTTP_EXPORT_ALL", "1")
            .env("REQUEST_METHOD", method)
            .env("PATH_INFO", path)
            .env("QUERY_STRING", query)
            .env("CONTENT_TYPE", content_type)
            .env("HTTP_CONTENT_ENCODING", encoding)
            .env("GIT_PROTOCOL", protocol)
            .env("REMOTE_USER", "dev")
            .env("REMOTE_ADDR", "127.0.0.1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("git http-backend");
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&body);
        });
        let output = child.wait_with_output().expect("http-backend output");
        let _ = writer.join();
        output.stdout
    })
    .await
    .unwrap_or_default();
    // CGI: headers, a blank line, the body.
    let split = output
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i, 4))
        .or_else(|| output.windows(2).position(|w| w == b"\n\n").map(|i| (i, 2)));
    let Some((end, gap)) = split else {
        return Response::builder()
            .status(StatusCode::INTERNAL_SERVER_ERROR)
            .body(Full::new(Bytes::from(output)))
            .unwrap();
    };
    let head = String::from_utf8_lossy(&output[..end]).to_string();
    let mut response = Response::builder();
    for line in head.lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("status") {
            let code = value
                .split_whitespace()
                .next()
                .and_then(|c| c.parse().ok())
                .unwrap_or(200);
            response = response.status(code);
        } else {
            response = response.header(name.trim(), value);
        }
    }
    response
        .body(Full::new(Bytes::copy_from_slice(&output[end + gap..])))
        .unwrap()
}

/// OpenSSH's sshd on a loopback port, letting one key log in as the user
/// running the tests.
pub struct SshServer {
    /// `ssh://USER@127.0.0.1:PORT`; a repository is at `{base}{absolute path}`.
    pub base: String,
    /// Where the bare repositories are.
    pub root: tempfile::TempDir,
    /// The authorized private key (OpenSSH format, encrypted with
    /// [`SshServer::PASSPHRASE`]).
    pub key: String,
    /// A key sshd does not accept.
    pub stranger_key: String,
    child: std::process::Child,
}

impl Drop for SshServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl SshServer {
    /// The passphrase of [`SshServer::key`].
    pub const PASSPHRASE: &'static str = "correct horse battery staple";

    /// Starts sshd; None (with a line saying so) when it is not installed.
    pub fn start() -> Option<Self> {
        let sshd = Path::new("/usr/sbin/sshd");
        if !sshd.exists() {
            eprintln!("skipped: /usr/sbin/sshd is missing (.ci/setup installs openssh-server)");
            return None;
        }
        let root = tempfile::tempdir().expect("temp dir");
        let dir = root.path().join(".ssh-server");
        std::fs::create_dir_all(&dir).unwrap();
        let keygen = |file: &str, passphrase: &str| {
            let status = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", passphrase, "-C", "shoal-test", "-f"])
                .arg(dir.join(file))
                .status()
                .expect("ssh-keygen");
            assert!(status.success());
        };
        keygen("host", "");
        keygen("client", Self::PASSPHRASE);
        keygen("stranger", "");
        std::fs::copy(dir.join("client.pub"), dir.join("authorized_keys")).unwrap();
        // Privilege separation wants this folder when sshd runs as root.
        let _ = std::fs::create_dir_all("/run/sshd");
        let port = crate::free_port();
        let user = std::env::var("USER").ok().filter(|u| !u.is_empty()).unwrap_or_else(|| {
            String::from_utf8_lossy(&Command::new("id").arg("-un").output().expect("id").stdout)
                .trim()
                .to_string()
        });
        let config = dir.join("sshd_config");
        std::fs::write(
            &config,
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {host}\nAuthorizedKeysFile {keys}\nPidFile {pid}\n\
                 UsePAM no\nStrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
                 PermitRootLogin prohibit-password\nAllowUsers {user}\n",
                host = dir.join("host").display(),
                keys = dir.join("authorized_keys").display(),
                pid = dir.join("sshd.pid").display(),
            ),
        )
        .unwrap();
        let child = Command::new(sshd)
            .arg("-D")
            .arg("-e")
            .arg("-f")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting sshd");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(std::time::Instant::now() < deadline, "sshd did not listen on {port}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Some(Self {
            base: format!("ssh://{user}@127.0.0.1:{port}"),
            key: std::fs::read_to_string(dir.join("client")).unwrap(),
            stranger_key: std::fs::read_to_string(dir.join("stranger")).unwrap(),
            root,
            child,
        })
    }
}

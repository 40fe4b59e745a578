//! Long-lived bundlers: `node bundle.mjs --serve`, one per running build.
//!
//! Starting Node and esbuild costs a build about 0.15 CPU seconds, more
//! than bundling a small Function (about 0.06 s in a warm bundler,
//! measured). So the service keeps bundlers between builds and lends one to
//! each build: the build's `shoal build` asks it over a Unix socket in the
//! build's folder ([`BUNDLER_SOCKET_ENV`]), and the service passes each
//! request on, refusing one about another folder. A bundler only parses
//! the Function's files (no code of the Function or its dependencies runs
//! in it) and keeps nothing between builds that the next one sees.
//!
//! A bundler counts towards the memory of the build it serves, and goes
//! with the build when the build is stopped mid-bundle; one is replaced
//! after [`BUILDS_PER_BUNDLER`] builds, so nothing it accumulates grows
//! without bound.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;

use rustix::process::{Pid, Signal};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// The variable that gives a build its bundler's socket (read by
/// `shoal build`).
pub const BUNDLER_SOCKET_ENV: &str = "SHOAL_BUNDLER_SOCKET";

/// Builds one bundler serves before it is replaced.
pub const BUILDS_PER_BUNDLER: u32 = 200;

/// The longest request line a build may send: two paths and an id.
const MAX_REQUEST_BYTES: u64 = 16 * 1024;

/// How bundlers are started.
#[derive(Debug, Clone)]
pub struct BundlerConfig {
    /// `node`.
    pub node: PathBuf,
    /// `bundle.mjs` of the JavaScript tools.
    pub script: PathBuf,
    /// The environment bundlers get, as builds do (nothing else).
    pub env: Vec<(String, String)>,
    /// The bundlers' working folder and `HOME`.
    pub home: PathBuf,
}

/// Idle bundlers, ready for the next build.
#[derive(Debug)]
pub struct BundlerPool {
    config: BundlerConfig,
    idle: Mutex<Vec<Bundler>>,
}

impl BundlerPool {
    /// A pool that starts bundlers as builds need them.
    pub fn new(config: BundlerConfig) -> Self {
        Self {
            config,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// An idle bundler, or a new one.
    ///
    /// # Errors
    /// node could not be started.
    pub fn take(&self) -> std::io::Result<Bundler> {
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        match idle {
            Some(bundler) => Ok(bundler),
            None => Bundler::start(&self.config),
        }
    }

    /// Keeps `bundler` for the next build, unless it was interrupted
    /// mid-bundle or has served its share (then it stops).
    pub fn give(&self, bundler: Bundler) {
        if bundler.busy || bundler.served >= BUILDS_PER_BUNDLER {
            return;
        }
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(bundler);
        }
    }
}

/// One `node bundle.mjs --serve`, in its own process group.
#[derive(Debug)]
pub struct Bundler {
    child: Child,
    group: Option<Pid>,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    served: u32,
    /// A request was sent and its answer not read: what comes next on
    /// stdout may be a stale answer.
    busy: bool,
}

/// A build's request, as `shoal build` sends it.
#[derive(Serialize, Deserialize)]
struct Request {
    id: u64,
    dir: PathBuf,
    out: PathBuf,
}

impl Bundler {
    fn start(config: &BundlerConfig) -> std::io::Result<Self> {
        std::fs::create_dir_all(&config.home)?;
        let mut child = Command::new(&config.node)
            .arg(&config.script)
            .arg("--serve")
            .env_clear()
            .envs(config.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env("HOME", &config.home)
            .current_dir(&config.home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()?;
        let group = child.id().and_then(|id| Pid::from_raw(id as i32));
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(std::io::Error::other("the bundler's pipes are missing"));
        };
        Ok(Self {
            child,
            group,
            stdin,
            stdout: BufReader::new(stdout),
            served: 0,
            busy: false,
        })
    }

    /// The bundler's process group (node and its esbuild), for measuring
    /// its memory.
    pub fn group(&self) -> Option<Pid> {
        self.group
    }

    /// Serves the bundling requests of the build in `folder`, arriving on
    /// `listener`, until the future is dropped (the build ended).
    pub async fn serve(&mut self, listener: &UnixListener, folder: &Path) {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            if let Err(e) = self.answer(stream, folder).await {
                tracing::warn!(error = %e, "a build's bundling request failed");
            }
        }
    }

    async fn answer(&mut self, stream: UnixStream, folder: &Path) -> std::io::Result<()> {
        let (read, mut write) = stream.into_split();
        let mut line = String::new();
        BufReader::new(read)
            .take(MAX_REQUEST_BYTES)
            .read_line(&mut line)
            .await?;
        let request: Request = serde_json::from_str(&line).map_err(std::io::Error::other)?;
        // The bundler reads and writes where it is told: a build may only
        // point it at its own folder.
        let inside = |p: &Path| {
            p.is_absolute() && p.starts_with(folder) && !p.components().any(|c| c == std::path::Component::ParentDir)
        };
        if !inside(&request.dir) || !inside(&request.out) {
            let refused = serde_json::json!({
                "id": request.id, "ok": false, "messages": ["the bundler only bundles the build's own folder"],
            });
            return write.write_all(format!("{refused}\n").as_bytes()).await;
        }
        let answer = self.bundle(&request).await?;
        write.write_all(answer.as_bytes()).await
    }

    async fn bundle(&mut self, request: &Request) -> std::io::Result<String> {
        let line = serde_json::to_string(request).map_err(std::io::Error::other)?;
        self.busy = true;
        self.served = self.served.saturating_add(1);
        self.stdin.write_all(format!("{line}\n").as_bytes()).await?;
        let mut answer = String::new();
        if self.stdout.read_line(&mut answer).await? == 0 {
            return Err(std::io::Error::other("the bundler stopped"));
        }
        self.busy = false;
        Ok(answer)
    }
}

impl Drop for Bundler {
    fn drop(&mut self) {
        // kill_on_drop stops node; its esbuild is in the same group.
        if let Some(group) = self.group {
            let _ = rustix::process::kill_process_group(group, Signal::KILL);
            crate::sandbox::reap_group_later(group);
        }
        let _ = self.child.start_kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(home: &Path) -> BundlerPool {
        let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shoal-build/js");
        BundlerPool::new(BundlerConfig {
            node: "node".into(),
            script: js.join("bundle.mjs"),
            env: vec![("PATH".into(), std::env::var("PATH").unwrap_or_default())],
            home: home.join("bundlers"),
        })
    }

    async fn ask(socket: &Path, dir: &Path, out: &Path) -> serde_json::Value {
        let stream = UnixStream::connect(socket).await.expect("connect");
        let (read, mut write) = stream.into_split();
        let request = serde_json::json!({ "id": 7, "dir": dir, "out": out });
        write.write_all(format!("{request}\n").as_bytes()).await.expect("send");
        let mut line = String::new();
        BufReader::new(read).read_line(&mut line).await.expect("answer");
        serde_json::from_str(&line).expect("json answer")
    }

    fn function(root: &Path, name: &str, body: &str) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).expect("folder");
        std::fs::write(dir.join("handler.js"), body).expect("handler");
        dir
    }

    #[tokio::test]
    async fn one_bundler_serves_build_after_build_and_only_each_builds_own_folder() {
        let root = tempfile::tempdir().expect("tempdir");
        let pool = pool(root.path());
        let mine = function(root.path(), "mine", "module.exports = { main: () => 'mine' };\n");
        let other = function(root.path(), "other", "module.exports = { main: () => 'secret' };\n");
        let socket = root.path().join("b.sock");
        let listener = UnixListener::bind(&socket).expect("bind");

        let mut bundler = pool.take().expect("bundler");
        let first = bundler.group();
        let answers = {
            let serving = bundler.serve(&listener, &mine);
            let asking = async {
                let own = ask(&socket, &mine, &mine.join("out.js")).await;
                let foreign = ask(&socket, &other, &mine.join("out.js")).await;
                let escaping = ask(&socket, &mine.join("../other"), &mine.join("out.js")).await;
                (own, foreign, escaping)
            };
            tokio::select! {
                () = serving => panic!("serving ended"),
                answers = asking => answers,
            }
        };
        assert_eq!(answers.0["ok"], true, "{}", answers.0);
        let bundle = std::fs::read_to_string(mine.join("out.js")).expect("bundle written");
        assert!(
            bundle.contains("'mine'") || bundle.contains("\"mine\""),
            "{bundle:.400}"
        );
        for refused in [&answers.1, &answers.2] {
            assert_eq!(refused["ok"], false, "{refused}");
            assert!(
                refused["messages"][0]
                    .as_str()
                    .is_some_and(|m| m.contains("own folder")),
                "{refused}"
            );
        }
        pool.give(bundler);
        let again = pool.take().expect("bundler");
        assert_eq!(again.group(), first, "the same bundler serves the next build");
    }

    #[tokio::test]
    async fn a_bundler_interrupted_mid_bundle_is_not_kept() {
        let root = tempfile::tempdir().expect("tempdir");
        let pool = pool(root.path());
        // Big enough that bundling it takes a while.
        let body = format!(
            "module.exports = {{ main: () => 1, data: {:?} }};\n",
            "x".repeat(4 << 20)
        );
        let mine = function(root.path(), "mine", &body);
        let socket = root.path().join("b.sock");
        let listener = UnixListener::bind(&socket).expect("bind");
        let mut bundler = pool.take().expect("bundler");
        let first = bundler.group();
        {
            let serving = bundler.serve(&listener, &mine);
            let asking = async {
                let stream = UnixStream::connect(&socket).await.expect("connect");
                let (_read, mut write) = stream.into_split();
                let request = serde_json::json!({ "id": 1, "dir": &mine, "out": mine.join("out.js") });
                write.write_all(format!("{request}\n").as_bytes()).await.expect("send");
                // The build stops once the bundler has started on it (its
                // entry module written), before the answer comes.
                while !mine.join("__shoal_entry.mjs").exists() {
                    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                }
            };
            tokio::select! {
                () = serving => panic!("serving ended"),
                () = asking => {}
            }
        }
        pool.give(bundler);
        let next = pool.take().expect("bundler");
        assert_ne!(next.group(), first, "a new bundler: the old one's next answer is stale");
    }
}

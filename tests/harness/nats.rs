//! A real NATS server with JetStream (Debian's `nats-server`, installed by
//! `.ci/setup`) on a free loopback port, its store in a temporary folder,
//! stopped by pid when dropped.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// See the module documentation.
pub struct NatsServer {
    child: Child,
    /// `nats://127.0.0.1:PORT`.
    pub url: String,
    _store: tempfile::TempDir,
}

impl NatsServer {
    /// Starts one and waits until it accepts connections.
    ///
    /// # Panics
    ///
    /// When `nats-server` is missing or does not start within 10 s.
    pub fn start() -> Self {
        let store = tempfile::tempdir().expect("a store folder");
        let port = crate::free_port();
        let child = Command::new("nats-server")
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(store.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting nats-server (installed by .ci/setup)");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not start on port {port}");
            std::thread::sleep(Duration::from_millis(20));
        }
        Self {
            child,
            url: format!("nats://127.0.0.1:{port}"),
            _store: store,
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

//! A Function that reads a database: one PostgreSQL query per request
//! through a module-level `pg` Pool, under Shoal (`shoal up`, the real
//! binary) and under the Node.js baseline, side by side against the same
//! throwaway PostgreSQL on loopback.
//!
//! ```sh
//! cargo build --release -p shoal && cargo run --release -p shoal-bench -- database
//! ```

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child as Process, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::Context;

use crate::children::{Server, ready, shoal_up};
use crate::measure::{Load, Target, rss_of, wrk};

/// Connections the load uses, as the other hot-Function rows.
const CONCURRENCY: usize = 64;

/// A throwaway PostgreSQL server on a free loopback port, stopped on drop.
struct Postgres {
    process: Process,
    port: u16,
    bin: PathBuf,
    _data: tempfile::TempDir,
}

impl Postgres {
    /// initdb and start, as the `postgres` user (PostgreSQL refuses root).
    fn start() -> anyhow::Result<Self> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .context("PostgreSQL is not installed: run .ci/setup")?
            .filter_map(Result::ok)
            .map(|e| e.path().join("bin"))
            .find(|p| p.join("postgres").exists())
            .context("no PostgreSQL server binary under /usr/lib/postgresql")?;
        let data = tempfile::tempdir()?;
        let dir = data.path().to_str().context("temp dir path")?.to_string();
        checked(Command::new("chown").args(["postgres:postgres", &dir]))?;
        let as_postgres = |program: &str| {
            let mut cmd = Command::new("runuser");
            cmd.args(["-u", "postgres", "--"]).arg(bin.join(program));
            cmd
        };
        checked(as_postgres("initdb").args([
            "-D",
            &format!("{dir}/db"),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
        ]))?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let process = as_postgres("postgres")
            .args(["-D", &format!("{dir}/db"), "-p", &port.to_string(), "-k", &dir])
            .args([
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "max_connections=300",
                "-c",
                "fsync=off",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting postgres")?;
        let server = Self {
            process,
            port,
            bin,
            _data: data,
        };
        let started = Instant::now();
        while server.psql("SELECT 1").is_err() {
            anyhow::ensure!(started.elapsed() < Duration::from_secs(30), "PostgreSQL did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(server)
    }

    fn psql(&self, sql: &str) -> anyhow::Result<String> {
        let out = Command::new(self.bin.join("psql"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                "-tAc",
                sql,
            ])
            .output()?;
        anyhow::ensure!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// Client connections open now.
    fn client_connections(&self) -> anyhow::Result<u64> {
        // psql's own connection is one of them.
        let count: u64 = self
            .psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")?
            .parse()?;
        Ok(count.saturating_sub(1))
    }

    fn env(&self) -> [(&'static str, String); 4] {
        [
            ("PGHOST", "127.0.0.1".into()),
            ("PGPORT", self.port.to_string()),
            ("PGUSER", "postgres".into()),
            ("PGDATABASE", "postgres".into()),
        ]
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn checked(cmd: &mut Command) -> anyhow::Result<()> {
    let out = cmd.output()?;
    anyhow::ensure!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}

/// A server process under test, stopped on drop.
#[derive(Debug, Clone)]
pub struct Side {
    /// The load at concurrency 64.
    pub load: Load,
    /// RSS of the serving process once the pool is warm, before the load.
    pub rss_idle: u64,
    /// RSS after the load.
    pub rss_loaded: u64,
    /// PostgreSQL connections the server held after the load.
    pub connections: u64,
}

/// Both sides, measured one after the other in one run.
#[derive(Debug, Clone)]
pub struct DatabaseRow {
    /// Shoal (`shoal up`).
    pub shoal: Side,
    /// One Node.js process under Express.
    pub node: Side,
}

fn function_yaml(db: &Postgres) -> anyhow::Result<String> {
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("handlers/pg-query.js"))?;
    let baseline: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("node-baseline/package.json"),
    )?)?;
    let pg = baseline["dependencies"]["pg"]
        .as_str()
        .context("node-baseline pins pg")?;
    let env: String = db
        .env()
        .iter()
        .map(|(k, v)| format!("    - name: {k}\n      value: \"{v}\"\n"))
        .collect();
    let source: String = source.lines().map(|l| format!("        {l}\n")).collect();
    Ok(format!(
        "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: pg-query\n  namespace: bench\nspec:\n  runtime: nodejs24\n  env:\n{env}  source:\n    inline:\n      dependencies: '{{\"dependencies\": {{\"pg\": \"{pg}\"}}}}'\n      source: |\n{source}"
    ))
}

async fn measure(
    server: &Server,
    addr: SocketAddr,
    path: &str,
    db: &Postgres,
    seconds: Duration,
) -> anyhow::Result<Side> {
    ready(addr, path).await?;
    let rss_idle = rss_of(server.id());
    let target = Target::Path(path.into());
    wrk(addr, &target, CONCURRENCY, Duration::from_secs(2))?;
    let load = wrk(addr, &target, CONCURRENCY, seconds)?;
    Ok(Side {
        load,
        rss_idle,
        rss_loaded: rss_of(server.id()),
        connections: db.client_connections()?,
    })
}

/// Runs both sides against one PostgreSQL.
pub async fn run(seconds: Duration) -> anyhow::Result<DatabaseRow> {
    crate::measure::require_wrk()?;
    // SHOAL_BENCH_SHOAL points at another build (a debug one, to check the
    // benchmark itself quickly).
    let db = Postgres::start()?;

    eprintln!("== Shoal: building and serving the pg Function (shoal up) ...");
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("pg-query.yaml"), function_yaml(&db)?)?;
    let (shoal, addr) = shoal_up(dir.path())?;
    let shoal_side = measure(&shoal, addr, "/bench/pg-query/", &db, seconds).await?;
    drop(shoal);
    // Let PostgreSQL notice the closed connections before counting again.
    tokio::time::sleep(Duration::from_millis(500)).await;

    eprintln!("== Node.js: the same handler under Express ...");
    let baseline = Path::new(env!("CARGO_MANIFEST_DIR")).join("node-baseline");
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let node = Server(
        Command::new("node")
            .arg("server.js")
            .current_dir(&baseline)
            .env("PORT", port.to_string())
            .env("HANDLER", "pg-query")
            .env("NODE_PATH", baseline.join("node_modules"))
            .envs(db.env())
            .stdout(Stdio::null())
            .spawn()
            .context("starting node")?,
    );
    let node_side = measure(&node, addr, "/", &db, seconds).await?;
    Ok(DatabaseRow {
        shoal: shoal_side,
        node: node_side,
    })
}

/// The results as a markdown table.
pub fn markdown(row: &DatabaseRow) -> String {
    let mib = |b: u64| format!("{:.0} MiB", b as f64 / (1 << 20) as f64);
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    let line = |name: &str, s: &Side| {
        format!(
            "| {name} | {:.0} | {} / {} | {} → {} | {} |\n",
            s.load.rps,
            ms(s.load.p50),
            ms(s.load.p99),
            mib(s.rss_idle),
            mib(s.rss_loaded),
            s.connections
        )
    };
    format!(
        "## A Function reading PostgreSQL: Shoal vs Node.js, concurrency {CONCURRENCY}, side by side\n\n\
         `handlers/pg-query.js`: one `SELECT $1::int + 1` per request through a module-level `pg` Pool \
         (`max: 10`), against a throwaway PostgreSQL on loopback. Shoal: `shoal up`; Node.js: one Express process.\n\n\
         | server | req/s | p50 / p99 | RSS warm → after the load | PostgreSQL connections held |\n|---|---|---|---|---|\n{}{}\n\
         Shoal / Node.js throughput: **{:.2}×**. Shoal's node is CPU-bound in the JavaScript interpreter: \
         `perf` puts most of its time in QuickJS running `pg`'s protocol code and the stream layers under \
         `net.Socket`, which V8 compiles; the host's socket work is a few percent. Each warm sandbox has its own \
         pool (a sandbox serves one request at a time, as a Kyma replica would), so Shoal holds a connection per \
         busy sandbox where the one Node.js process shares its pool of 10; the RSS a pool costs is in the \
         warm → after-the-load column (64 warm sandboxes, each with its pool and connection).\n",
        line("Shoal node", &row.shoal),
        line("Node.js process", &row.node),
        row.shoal.load.rps / row.node.load.rps.max(1.0),
    )
}

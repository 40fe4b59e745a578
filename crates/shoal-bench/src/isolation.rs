//! A neighbour's latency while another tenant attacks the node: the
//! isolation issue's measure of "a Function can do to its neighbours at
//! most what it could do from its own pod".
//!
//! One `shoal up` (the real binary) serves a quiet `hello` and the
//! attackers' Functions. `wrk` measures `hello` alone, then under each
//! attack, side by side in one run:
//! - **busy loop**: eight requests at a time to a Function that spins 50 ms
//!   of CPU each;
//! - **memory pressure**: eight requests at a time to a Function that
//!   fills 96 MiB each;
//! - **slow clients**: 2,000 connections trickling headers or a body a few
//!   bytes at a time (Slowloris), reconnecting when cut off;
//! - **socket flood**: 4,000 idle connections held open, plus two
//!   connect-and-close loops.
//!
//! ```sh
//! cargo build --release -p shoal && cargo run --release -p shoal-bench -- isolation
//! ```

use std::{
    net::SocketAddr,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    task::JoinSet,
};

use crate::children::{ready, shoal_up};
use crate::measure::{Load, Target, wrk};

/// Connections `wrk` keeps to the neighbour: a light, steady load, so the
/// figures are the neighbour's latency rather than its saturation.
const NEIGHBOUR_CONNECTIONS: usize = 4;

/// The attacks, in the order the table shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    Quiet,
    BusyLoop,
    MemoryPressure,
    SlowClients,
    SocketFlood,
}

impl Attack {
    const ALL: [Attack; 5] = [
        Attack::Quiet,
        Attack::BusyLoop,
        Attack::MemoryPressure,
        Attack::SlowClients,
        Attack::SocketFlood,
    ];

    fn describe(self) -> &'static str {
        match self {
            Attack::Quiet => "none (quiet)",
            Attack::BusyLoop => "busy loop: 8 concurrent requests spinning 50 ms of CPU each",
            Attack::MemoryPressure => "memory pressure: 8 concurrent requests filling 96 MiB each",
            Attack::SlowClients => "slow clients: 2,000 connections trickling headers or a body",
            Attack::SocketFlood => "socket flood: 4,000 idle connections + 2 connect/close loops",
        }
    }
}

/// The neighbour's figures under one attack.
#[derive(Debug, Clone)]
pub struct Row {
    pub attack: Attack,
    pub neighbour: Load,
    /// Requests or connections the attacker got through while measured.
    pub attacker_work: u64,
}

const FUNCTIONS: &[(&str, &str, &str)] = &[
    ("hello", "S", "module.exports = { main() { return 'hello'; } };"),
    (
        "spin",
        "S",
        "module.exports = { main() { const end = Date.now() + 50; while (Date.now() < end) {} return 'spun'; } };",
    ),
    (
        "hog",
        "L",
        "module.exports = { main() { const a = new Uint8Array(96 << 20); a.fill(1); return String(a.length); } };",
    ),
];

fn write_functions(dir: &Path) -> anyhow::Result<()> {
    for (name, preset, source) in FUNCTIONS {
        std::fs::write(
            dir.join(format!("{name}.yaml")),
            format!(
                "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: {name}\n  namespace: bench\n  labels:\n    serverless.kyma-project.io/function-resources-preset: {preset}\nspec:\n  runtime: nodejs24\n  source:\n    inline:\n      source: |\n        {source}\n"
            ),
        )?;
    }
    Ok(())
}

/// Runs every attack against one `shoal up` and measures the neighbour.
///
/// # Errors
/// When `wrk` or the release binary is missing, or the node does not start.
pub async fn run(seconds: Duration) -> anyhow::Result<Vec<Row>> {
    crate::measure::require_wrk()?;
    let dir = tempfile::tempdir()?;
    write_functions(dir.path())?;
    eprintln!("== building and serving hello, spin and hog (shoal up) ...");
    let (_shoal, addr) = shoal_up(dir.path())?;
    for (name, _, _) in FUNCTIONS {
        ready(addr, &format!("/bench/{name}/")).await?;
    }
    let neighbour = Target::Path("/bench/hello/".into());
    // Warm the neighbour's sandboxes up before the quiet row.
    wrk(addr, &neighbour, NEIGHBOUR_CONNECTIONS, Duration::from_secs(2))?;
    let mut rows = Vec::new();
    for attack in Attack::ALL {
        eprintln!("== neighbour under: {} ...", attack.describe());
        let work = Arc::new(AtomicU64::new(0));
        let mut attackers = start(attack, addr, work.clone());
        // Let the attack reach its steady state before measuring.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let before = work.load(Ordering::Relaxed);
        let load = wrk(addr, &neighbour, NEIGHBOUR_CONNECTIONS, seconds)?;
        let attacker_work = work.load(Ordering::Relaxed).saturating_sub(before);
        attackers.abort_all();
        while attackers.join_next().await.is_some() {}
        rows.push(Row {
            attack,
            neighbour: load,
            attacker_work,
        });
        // The node lets go of the attack's connections and sandboxes.
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    Ok(rows)
}

fn start(attack: Attack, addr: SocketAddr, work: Arc<AtomicU64>) -> JoinSet<()> {
    let mut set = JoinSet::new();
    match attack {
        Attack::Quiet => {}
        Attack::BusyLoop | Attack::MemoryPressure => {
            let path = if attack == Attack::BusyLoop {
                "/bench/spin/"
            } else {
                "/bench/hog/"
            };
            for _ in 0..8 {
                let work = work.clone();
                set.spawn(async move {
                    loop {
                        if get(addr, path).await.is_ok() {
                            work.fetch_add(1, Ordering::Relaxed);
                        } else {
                            tokio::time::sleep(Duration::from_millis(10)).await;
                        }
                    }
                });
            }
        }
        Attack::SlowClients => {
            for i in 0..2_000 {
                let work = work.clone();
                set.spawn(async move {
                    loop {
                        // Cut off (or refused): count it and come back.
                        let _ = trickle(addr, i % 2 == 0).await;
                        work.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                });
            }
        }
        Attack::SocketFlood => {
            for _ in 0..4_000 {
                let work = work.clone();
                set.spawn(async move {
                    loop {
                        if let Ok(mut stream) = TcpStream::connect(addr).await {
                            work.fetch_add(1, Ordering::Relaxed);
                            let mut byte = [0u8; 1];
                            // Held until the node closes it.
                            let _ = stream.read(&mut byte).await;
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                });
            }
            for _ in 0..2 {
                let work = work.clone();
                set.spawn(async move {
                    loop {
                        if TcpStream::connect(addr).await.is_ok() {
                            work.fetch_add(1, Ordering::Relaxed);
                        }
                        tokio::task::yield_now().await;
                    }
                });
            }
        }
    }
    set
}

/// One request on its own connection; the status line's code.
async fn get(addr: SocketAddr, path: &str) -> anyhow::Result<u16> {
    let mut stream = TcpStream::connect(addr).await?;
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
        .await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let status = answer
        .get(9..12)
        .and_then(|code| std::str::from_utf8(code).ok())
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    Ok(status)
}

/// A Slowloris client: headers that never end, or a body a byte a second.
async fn trickle(addr: SocketAddr, headers: bool) -> std::io::Result<()> {
    let mut stream = TcpStream::connect(addr).await?;
    if headers {
        stream.write_all(b"GET /bench/hello/ HTTP/1.1\r\nHost: x\r\n").await?;
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            stream.write_all(b"X-Slow: a\r\n").await?;
        }
    } else {
        stream
            .write_all(b"POST /bench/hello/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            .await?;
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            stream.write_all(b"a").await?;
        }
    }
}

/// The results as a markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    let quiet = rows
        .iter()
        .find(|r| r.attack == Attack::Quiet)
        .map(|r| r.neighbour.clone())
        .unwrap_or_default();
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-9);
    let mut out = format!(
        "## A neighbour's latency under attack, side by side\n\n\
         `hello` measured by wrk with {NEIGHBOUR_CONNECTIONS} connections while another tenant attacks the same \
         `shoal up` node. The attacker's work is what it got through while the neighbour was measured \
         (requests answered, or connections made). The goal: the neighbour's p99 within 2× of its quiet p99.\n\n\
         | attack | hello p50 | hello p99 | p50 / quiet | p99 / quiet | hello req/s | attacker's work |\n\
         |---|---|---|---|---|---|---|\n"
    );
    for row in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {:.2}× | {:.2}× | {:.0} | {} |\n",
            row.attack.describe(),
            ms(row.neighbour.p50),
            ms(row.neighbour.p99),
            ratio(row.neighbour.p50, quiet.p50),
            ratio(row.neighbour.p99, quiet.p99),
            row.neighbour.rps,
            row.attacker_work
        ));
    }
    out
}

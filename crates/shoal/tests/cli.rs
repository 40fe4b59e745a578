//! `shoal build` as a user runs it: exit codes and messages.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use std::{path::Path, process::Command};

use shoal_oci::{Credentials, Registry, Transport};
use shoal_tests::npm_registry::{Package, TestNpmRegistry};
use shoal_tests::{TestRegistry, free_port, workspace_root};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn shoal(args: &[&str], cwd: &Path) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(args)
        .current_dir(cwd)
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .output()
        .expect("running shoal");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The digest-pinned reference `shoal build --push` printed.
fn pushed_reference(run: &Run) -> String {
    run.stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("pushed "))
        .unwrap_or_else(|| panic!("no pushed line in {}", run.stdout))
        .to_string()
}

fn write(dir: &Path, name: &str, content: &str) -> String {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, content).unwrap();
    path.to_string_lossy().into_owned()
}

fn function_yaml(runtime: &str, source: &str, deps: Option<&str>) -> String {
    let indent = |s: &str| s.lines().map(|l| format!("        {l}\n")).collect::<String>();
    let deps = deps
        .map(|d| format!("      dependencies: |\n{}", indent(d)))
        .unwrap_or_default();
    format!(
        "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: probe\n  namespace: shop\nspec:\n  runtime: {runtime}\n  source:\n    inline:\n      source: |\n{}{deps}",
        indent(source)
    )
}

#[test]
fn builds_an_example_and_reports_size_digest_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let example = workspace_root().join("examples/hello.js");
    let run = shoal(&["build", example.to_str().unwrap(), "-o", "hello.wasm"], dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("built default/hello:"), "{}", run.stdout);
    assert!(run.stdout.contains("sha256:"), "{}", run.stdout);
    assert!(run.stdout.contains(" s (npm "), "{}", run.stdout);
    let wasm = std::fs::read(dir.path().join("hello.wasm")).unwrap();
    assert_eq!(&wasm[..4], b"\0asm");
}

/// A Kyma YAML with npm dependencies builds; a rebuild with the same
/// package.json reuses the installed dependencies (no npm run) and gives the
/// same module; a changed package.json installs again.
#[test]
fn builds_a_kyma_yaml_with_dependencies_and_reuses_the_install() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let source = "const _ = require('lodash');\nmodule.exports = { main: () => _.kebabCase('Hello World') };";
    // `npm_registry`: where npm would install from (a closed port: any
    // install fails, so a build that succeeds did not run npm).
    let build_from = |deps: &str, out: &str, npm_registry: Option<&str>| {
        let yaml = write(dir.path(), "fn.yaml", &function_yaml("nodejs22", source, Some(deps)));
        let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
        if let Some(registry) = npm_registry {
            command.env("npm_config_registry", registry);
        }
        let out = command
            .args(["build", &yaml, "-o", out])
            .current_dir(dir.path())
            .env("SHOAL_CACHE_DIR", cache.path())
            .output()
            .expect("running shoal");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("built shop/probe"), "{stdout}");
        stdout
    };
    let build = |deps: &str, out: &str| build_from(deps, out, None);
    let deps = r#"{ "name": "probe", "dependencies": { "lodash": "^4.17.20" } }"#;
    let first = build(deps, "first.wasm");
    assert!(!first.contains("(npm 0 ms"), "the first build installs: {first}");
    // With no npm registry to reach, the same package.json still builds:
    // its install is reused.
    let closed = format!("http://127.0.0.1:{}/", free_port());
    build_from(deps, "again.wasm", Some(&closed));
    assert!(
        std::fs::read(dir.path().join("first.wasm")).unwrap() == std::fs::read(dir.path().join("again.wasm")).unwrap(),
        "the rebuild gives the same module"
    );
    let changed = build(
        r#"{ "name": "probe", "dependencies": { "lodash": "4.17.21" } }"#,
        "changed.wasm",
    );
    assert!(
        !changed.contains("(npm 0 ms"),
        "a changed package.json installs: {changed}"
    );
}

#[test]
fn a_syntax_error_exits_non_zero_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let js = write(dir.path(), "bad.js", "module.exports = {\n  main() { return ( }\n};\n");
    let run = shoal(&["build", &js], dir.path());
    assert_ne!(run.code, 0);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert!(run.stderr.contains("handler.js:2:"), "{}", run.stderr);
}

#[test]
fn a_missing_main_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let js = write(dir.path(), "nomain.js", "module.exports = { mian() { return 1; } };\n");
    let run = shoal(&["build", &js], dir.path());
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("does not export a main function"), "{}", run.stderr);
}

#[test]
fn bad_function_yaml_exits_non_zero_with_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            function_yaml("python312", "def main(event, context): return 1", None),
            "Shoal runs Node.js Functions only",
        ),
        (
            function_yaml("cobol", "module.exports = { main: () => 1 };", None),
            "\"cobol\" is unknown",
        ),
        (function_yaml("nodejs22", " ", None), "source is empty"),
        (
            function_yaml(
                "nodejs22",
                "module.exports = { main: () => 1 };",
                Some("{ \"dependencies\": [ }"),
            ),
            "not valid JSON",
        ),
    ];
    for (i, (yaml, expected)) in cases.iter().enumerate() {
        let path = write(dir.path(), &format!("case{i}.yaml"), yaml);
        let run = shoal(&["build", &path], dir.path());
        assert_ne!(run.code, 0, "case {i}");
        assert!(run.stderr.contains(expected), "case {i}: {}", run.stderr);
    }
}

#[test]
fn a_missing_npm_package_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "fn/handler.js", "module.exports = { main: () => 1 };");
    write(
        dir.path(),
        "fn/package.json",
        r#"{"dependencies": {"shoal-no-such-package-77aa": "1.0.0"}}"#,
    );
    let run = shoal(&["build", "fn"], dir.path());
    assert_ne!(run.code, 0);
    assert!(
        run.stderr
            .contains("package not found in the npm registry: shoal-no-such-package-77aa"),
        "{}",
        run.stderr
    );
}

#[test]
fn push_goes_to_a_real_registry_and_an_unreachable_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let example = workspace_root().join("examples/hello.js");
    let server = TestRegistry::start(None);
    let reference = format!("{}/functions/hello:v1", server.address);
    let run = shoal(&["build", example.to_str().unwrap(), "--push", &reference], dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pinned = pushed_reference(&run);
    let pulled = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(Registry::new(Transport::Http, Credentials::Anonymous).pull(&pinned, None))
        .unwrap();
    assert_eq!(&pulled.wasm[..4], b"\0asm");
    assert_eq!(pulled.metadata.function, "default/hello");

    let unreachable = format!("127.0.0.1:{}/functions/hello:v1", free_port());
    let run = shoal(
        &["build", example.to_str().unwrap(), "--push", &unreachable],
        dir.path(),
    );
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("pushing to 127.0.0.1:"), "{}", run.stderr);
    assert!(run.stderr.to_lowercase().contains("connect"), "{}", run.stderr);
}

fn http_get(addr: &str, path: &str) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split_whitespace().nth(1)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

/// A `shoal up` process, stopped when dropped: a failing assertion must not
/// leave it serving (and holding what its parent held) after the test.
pub(crate) struct Up(std::process::Child);

impl std::ops::Deref for Up {
    type Target = std::process::Child;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Up {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Drop for Up {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `shoal up DIR --listen ADDR EXTRA…`, and what it prints, as it prints it.
fn spawn_up(dir: &Path, addr: &str, extra: &[&str]) -> (Up, std::sync::Arc<std::sync::Mutex<String>>) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["up", dir.to_str().unwrap(), "--listen", addr])
        .args(extra)
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let printed = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let sink = printed.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            sink.lock().unwrap().push_str(&(line + "\n"));
        }
    });
    (Up(child), printed)
}

fn wait_for_body(addr: &str, path: &str, expected: &str, within: std::time::Duration) -> bool {
    let deadline = std::time::Instant::now() + within;
    while std::time::Instant::now() < deadline {
        if http_get(addr, path).is_some_and(|(s, b)| s == 200 && b == expected) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    false
}

#[test]
fn up_serves_a_folder_swaps_in_edits_keeps_serving_through_a_broken_edit_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let handler = write(
        dir.path(),
        "greeter.js",
        "module.exports = { main: () => 'version one' };\n",
    );
    let addr = format!("127.0.0.1:{}", free_port());
    let (mut child, printed) = spawn_up(dir.path(), &addr, &[]);
    let path = "/default/greeter/";
    let ok = wait_for_body(&addr, path, "version one", std::time::Duration::from_secs(120));
    assert!(ok, "never served version one: {}", printed.lock().unwrap());
    // The listener may answer before the summary reaches this side of the pipe.
    let curl_line = format!("curl -s http://{addr}/default/greeter/");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !printed.lock().unwrap().contains(&curl_line) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        printed.lock().unwrap().contains(&curl_line),
        "{}",
        printed.lock().unwrap()
    );

    std::fs::write(&handler, "module.exports = { main: () => 'the second version' };\n").unwrap();
    assert!(
        wait_for_body(&addr, path, "the second version", std::time::Duration::from_secs(60)),
        "edit not swapped in"
    );

    std::fs::write(&handler, "module.exports = { main: () => \n").unwrap();
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert_eq!(
        http_get(&addr, path),
        Some((200, "the second version".to_string())),
        "a broken edit must not take the Function down"
    );

    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "shoal up exits cleanly on SIGTERM: {status:?}");
}

/// What an example promises: `// expect: STATUS BODY` in its handler or the
/// `shoal.dev/expect` annotation of its YAML. A JSON body is matched as a
/// subset (fields that vary, such as timings and ids, are left out of it);
/// any other body must be equal.
fn promised_answer(source: &shoal_build::FunctionSource) -> (u16, String) {
    let line = source
        .function
        .as_ref()
        .and_then(|f| f.metadata.annotations.as_ref())
        .and_then(|a| a.get("shoal.dev/expect").cloned())
        .or_else(|| {
            source
                .inputs
                .source
                .lines()
                .find_map(|l| l.trim().strip_prefix("// expect:").map(|e| e.trim().to_string()))
        })
        .unwrap_or_else(|| {
            panic!(
                "{} promises no answer (// expect: or shoal.dev/expect)",
                source.origin.display()
            )
        });
    let (status, body) = line.split_once(' ').unwrap_or((&line, ""));
    (status.parse().expect("expect: STATUS BODY"), body.to_string())
}

fn json_subset(expected: &serde_json::Value, actual: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e.iter().all(|(k, v)| a.get(k).is_some_and(|av| json_subset(v, av))),
        (Value::Array(e), Value::Array(a)) => e.len() == a.len() && e.iter().zip(a).all(|(x, y)| json_subset(x, y)),
        (e, a) => e == a,
    }
}

/// The README's first command, as a user runs it: `shoal up examples`
/// builds every example, and each curl line it prints gets the answer the
/// example promises.
#[test]
fn every_example_builds_and_its_curl_line_gets_the_promised_answer() {
    use std::io::{BufRead, BufReader};
    let examples = workspace_root().join("examples");
    let mut expected: std::collections::BTreeMap<String, (u16, String)> = Default::default();
    for entry in std::fs::read_dir(&examples).unwrap() {
        let path = entry.unwrap().path();
        let source = shoal_build::load_function(&path)
            .unwrap_or_else(|e| panic!("{} is not a valid Function: {e}", path.display()));
        expected.insert(
            format!("{}/{}", source.namespace, source.name),
            promised_answer(&source),
        );
    }
    assert_eq!(expected.len(), 8, "every file in examples/ is a Function: {expected:?}");

    let addr = format!("127.0.0.1:{}", free_port());
    let mut child = Up(Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["up", examples.to_str().unwrap(), "--listen", &addr])
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap());
    let stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .filter(|l| l.starts_with('✗'))
            .collect::<Vec<_>>()
    });
    let mut curl_lines = Vec::new();
    let mut banner = String::new();
    for line in BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
    {
        if line.contains("Shoal is serving") {
            banner = line.clone();
        }
        if let Some((key, command)) = line.trim().split_once("curl ")
            && !banner.is_empty()
        {
            curl_lines.push((key.trim().to_string(), format!("curl {command}")));
        }
        if line.starts_with("Edit a file there") {
            break;
        }
    }
    assert!(banner.contains("serving 8 Functions"), "{banner}");

    let mut answered = Vec::new();
    for (key, command) in &curl_lines {
        let (status, body) = expected.get(key).unwrap_or_else(|| panic!("{key} was not expected"));
        // The printed line runs as a user pastes it, plus the status code.
        let out = Command::new("sh")
            .args(["-c", &format!("{command} -w '\\n%{{http_code}}'")])
            .output()
            .expect("curl");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let (response, code) = text.rsplit_once('\n').unwrap_or(("", &text));
        // `curl -i` prints the head first.
        let answer = response.split_once("\r\n\r\n").map_or(response, |(_, b)| b);
        assert_eq!(code.parse::<u16>().ok(), Some(*status), "{key}: {command}\n{text}");
        match serde_json::from_str::<serde_json::Value>(body) {
            Ok(json) if json.is_object() => {
                let got: serde_json::Value = serde_json::from_str(answer)
                    .unwrap_or_else(|e| panic!("{key} did not answer JSON ({e}): {answer}"));
                assert!(json_subset(&json, &got), "{key}: {got} does not hold {json}");
            }
            _ => assert_eq!(answer, body, "{key}: {command}"),
        }
        answered.push(key.clone());
    }
    // Its stderr ends when it does.
    drop(child);
    let errors = errors.join().unwrap();
    assert!(errors.is_empty(), "build failures: {errors:?}");
    answered.sort();
    assert_eq!(
        answered,
        expected.keys().cloned().collect::<Vec<_>>(),
        "a curl line for every example"
    );
}

/// The same Function built twice, from two folders, as two build Jobs
/// would: the module and the pushed artifact are the same bytes, so a
/// rebuild or a restarted controller never makes nodes reload.
#[test]
fn the_same_function_built_twice_gives_the_same_artifact_digest() {
    let server = TestRegistry::start(None);
    let cases = [
        ("plain", "module.exports = { main: () => 'same bytes' };", None),
        (
            "with-dependency",
            "const _ = require('lodash');\nmodule.exports = { main: () => _.kebabCase('Same Bytes') };",
            Some(r#"{ "name": "probe", "dependencies": { "lodash": "4.17.21" } }"#),
        ),
    ];
    for (case, source, deps) in cases {
        let mut digests = Vec::new();
        let mut modules = Vec::new();
        for attempt in 1..=2 {
            if attempt == 2 {
                // Past the next second: a wall-clock timestamp in the
                // artifact would now differ.
                std::thread::sleep(std::time::Duration::from_millis(1100));
            }
            let dir = tempfile::tempdir().unwrap();
            let yaml = write(dir.path(), "fn.yaml", &function_yaml("nodejs22", source, deps));
            let reference = format!("{}/functions/{case}:attempt{attempt}", server.address);
            let run = shoal(&["build", &yaml, "-o", "out.wasm", "--push", &reference], dir.path());
            assert_eq!(run.code, 0, "{}", run.stderr);
            let pinned = pushed_reference(&run);
            digests.push(pinned.rsplit_once('@').expect("pinned").1.to_string());
            modules.push(std::fs::read(dir.path().join("out.wasm")).unwrap());
        }
        assert!(modules[0] == modules[1], "{case}: the two modules differ");
        assert_eq!(digests[0], digests[1], "{case}: the two artifacts differ");
    }
}

/// The differential suite (tests/compat): each realistic Function runs
/// under real Node.js with a Kyma-like Express 5 runtime and under
/// `shoal up`, and every answer must agree (by shape where randomness or
/// the clock decides). Cases in tests/compat/known-differences.json are
/// reported with their reason; one that starts agreeing fails until it is
/// taken off the list.
#[test]
fn the_compat_corpus_answers_as_it_does_under_node() {
    run_compat_corpus(&[]);
}

/// The same corpus with a fresh sandbox per request (run-all.js --fresh):
/// every sandbox after the first starts from the Function's snapshot and
/// must answer exactly as Shoal does when it evaluates every fresh sandbox
/// anew (snapshots off), in every case, stateful ones too.
#[test]
fn the_compat_corpus_answers_the_same_from_snapshots_as_evaluated_anew() {
    run_compat_corpus(&["--fresh"]);
}

/// Runs tests/compat/harness/run-all.js against this build's `shoal` and
/// fails with its report unless every case passes. One run at a time: the
/// harness picks free ports by binding and releasing them, which two
/// concurrent runs race for ("Address already in use").
fn run_compat_corpus(extra: &[&str]) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let out = Command::new("node")
        .arg(workspace_root().join("tests/compat/harness/run-all.js"))
        .args(["--shoal", env!("CARGO_BIN_EXE_shoal")])
        .args(extra)
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .output()
        .expect("running node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Vec<&str> = stdout
        .lines()
        .filter(|l| {
            l.starts_with("=== ") || l.starts_with("--- ") || l.contains(" passed, ") || l.contains("known differences")
        })
        .collect();
    println!("{}", report.join("\n"));
    assert!(
        out.status.success(),
        "{}\n{}",
        report.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The npm load test's CI subset (tests/npm-load/ci.json: some 25 of the most
/// depended-upon pure-JavaScript packages, CommonJS and ESM-only, most with a
/// README smoke call), each loaded by a generated Function under real Node and
/// under Shoal. run.mjs exits 1 when the subset's pass rate falls below the
/// minPassRate recorded in ci.json, or when a package fails under Node.
#[test]
fn the_npm_load_subset_loads_as_it_does_under_node() {
    let out = Command::new("node")
        .arg(workspace_root().join("tests/npm-load/run.mjs"))
        .args(["--ci", "--shoal", env!("CARGO_BIN_EXE_shoal")])
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .output()
        .expect("running node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Intl against real Node 24 (tests/intl): some 75,000 generated calls of
/// every Intl constructor over Node's locales and time zones, run under
/// both; run.mjs exits 1 when a constructor agrees less than recorded in
/// tests/intl/agreement-fast.json.
#[test]
fn intl_answers_as_node_24_does_on_generated_calls() {
    let out = Command::new("node")
        .arg(workspace_root().join("tests/intl/run.mjs"))
        .args(["--fast", "--show", "0", "--shoal", env!("CARGO_BIN_EXE_shoal")])
        .arg("--expect")
        .arg(workspace_root().join("tests/intl/agreement-fast.json"))
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .output()
        .expect("running node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("per constructor"))
        .collect();
    println!("{}", summary.join("\n"));
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A small HTTP/1.1 upstream on 127.0.0.1 for outbound tests (tokio: its
/// listen backlog takes hundreds of connections at once): `/slow?ms=N`
/// answers "slow" after N ms, `/big?kb=N` N KiB, anything else "hi".
fn start_upstream() -> String {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                tokio::spawn(async move {
                    let mut reader = BufReader::new(stream);
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.is_err() {
                        return;
                    }
                    let mut header = String::new();
                    while reader.read_line(&mut header).await.is_ok_and(|n| n > 2) {
                        header.clear();
                    }
                    let target = line.split_whitespace().nth(1).unwrap_or("/").to_string();
                    let number = |key: &str| {
                        target
                            .split(['?', '&'])
                            .find_map(|p| p.strip_prefix(&format!("{key}=")))
                            .and_then(|v| v.parse::<u64>().ok())
                            .unwrap_or(0)
                    };
                    let body = if target.starts_with("/slow") {
                        tokio::time::sleep(std::time::Duration::from_millis(number("ms"))).await;
                        b"slow".to_vec()
                    } else if target.starts_with("/big") {
                        vec![b'x'; (number("kb") * 1024) as usize]
                    } else {
                        b"hi".to_vec()
                    };
                    let mut stream = reader.into_inner();
                    let head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = stream.write_all(head.as_bytes()).await;
                    let _ = stream.write_all(&body).await;
                });
            }
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

/// The outbound tests load a node with hundreds of sandboxes: one at a time.
static OUTBOUND_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Starts `shoal up DIR` with extra flags; returns the child and its address
/// once it serves.
pub(crate) fn start_up(dir: &Path, flags: &[&str]) -> (Up, String) {
    use std::io::{BufRead, BufReader};
    let addr = format!("127.0.0.1:{}", free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["up", dir.to_str().unwrap(), "--listen", &addr])
        .args(flags)
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for line in lines.by_ref().map_while(Result::ok) {
        if line.contains("Shoal is serving") {
            break;
        }
    }
    // Keep reading: a closed stdout would make shoal's next line fail.
    std::thread::spawn(move || lines.for_each(drop));
    (Up(child), addr)
}

fn function_file(dir: &Path, name: &str, env: &[(&str, &str)], source: &str) {
    let env: String = env
        .iter()
        .map(|(k, v)| format!("    - name: {k}\n      value: \"{v}\"\n"))
        .collect();
    let source: String = source.lines().map(|l| format!("        {l}\n")).collect();
    write(
        dir,
        &format!("{name}.yaml"),
        &format!(
            "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: {name}\nspec:\n  env:\n{env}  source:\n    inline:\n      source: |\n{source}"
        ),
    );
}

/// Outbound HTTP as a Function sees it: concurrent fetches, and each limit
/// and the egress policy giving a catchable error with a clear message.
#[test]
fn fetches_run_concurrently_and_limits_and_policy_give_clear_errors() {
    let _one_at_a_time = OUTBOUND_TESTS.lock().unwrap_or_else(|e| e.into_inner());
    let upstream = start_upstream();
    let dir = tempfile::tempdir().unwrap();
    let env = [("UPSTREAM", upstream.as_str())];
    let catching = |call: &str| {
        format!(
            "module.exports = {{ main: async () => {{\n  try {{ {call}; return 'no error'; }}\n  catch (e) {{ return `${{e.name}}: ${{e.message}} / ${{e.cause && e.cause.message}}`; }}\n}} }};"
        )
    };
    function_file(
        dir.path(),
        "parallel",
        &env,
        "module.exports = { main: async () => {\n  const t = Date.now();\n  const bodies = await Promise.all(Array.from({ length: 10 }, () => fetch(process.env.UPSTREAM + '/slow?ms=200').then((r) => r.text())));\n  return { bodies: new Set(bodies).size, ms: Date.now() - t };\n} };",
    );
    function_file(
        dir.path(),
        "too-many",
        &env,
        &catching("for (let i = 0; i < 11; i++) await fetch(process.env.UPSTREAM + '/')"),
    );
    function_file(
        dir.path(),
        "too-big",
        &env,
        &catching("await fetch(process.env.UPSTREAM + '/big?kb=2048')"),
    );
    function_file(
        dir.path(),
        "denied",
        &env,
        &catching("await fetch('http://billing.internal.example/invoices')"),
    );
    function_file(
        dir.path(),
        "too-slow",
        &[("UPSTREAM", upstream.as_str()), ("FUNC_TIMEOUT", "1")],
        "module.exports = { main: async () => (await fetch(process.env.UPSTREAM + '/slow?ms=5000')).text() };",
    );
    let (_up, addr) = start_up(
        dir.path(),
        &[
            "--outbound-max-requests",
            "10",
            "--outbound-max-response-mb",
            "1",
            "--egress-deny",
            "*.internal.example",
        ],
    );

    let (status, body) = http_get(&addr, "/default/parallel/").expect("parallel");
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["bodies"], 1);
    // Ten 200 ms requests one after another would take 2 s.
    assert!(answer["ms"].as_u64().unwrap() < 1000, "not concurrent: {answer}");

    let (_, body) = http_get(&addr, "/default/too-many/").expect("too-many");
    assert!(
        body.contains("TypeError: fetch failed") && body.contains("a Function may make 10 requests per invocation"),
        "{body}"
    );
    let (_, body) = http_get(&addr, "/default/too-big/").expect("too-big");
    assert!(body.contains("larger than the 1048576-byte limit"), "{body}");
    let (_, body) = http_get(&addr, "/default/denied/").expect("denied");
    assert!(
        body.contains("egress to billing.internal.example is denied by the node's egress policy")
            && body.contains("*.internal.example"),
        "{body}"
    );
    // The call is bounded by the Function's own FUNC_TIMEOUT.
    let (status, _) = http_get(&addr, "/default/too-slow/").expect("too-slow");
    assert_eq!(status, 408);
}

/// A TCP echo server on 127.0.0.1 that keeps each connection open until
/// the client ends it; the counter is how many are open now.
fn start_echo_server() -> (u16, Arc<AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let open = Arc::new(AtomicUsize::new(0));
    let counter = open.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let counter = counter.clone();
            counter.fetch_add(1, Ordering::SeqCst);
            std::thread::spawn(move || {
                let mut reader = stream.try_clone().unwrap();
                let _ = std::io::copy(&mut reader, &mut stream);
                counter.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    (port, open)
}

/// `net.connect` through the node: bytes echoed both ways, the egress policy
/// refusing a host by name before anything is resolved or sent, a name or
/// address reaching link-local or the node's own port refused before it is
/// dialled (fetch and sockets alike), and the per-sandbox connection cap,
/// each a catchable error with Node's code.
#[test]
fn sockets_echo_and_obey_the_egress_policy_and_the_connection_cap() {
    let _one_at_a_time = OUTBOUND_TESTS.lock().unwrap_or_else(|e| e.into_inner());
    let (port, echo_connections) = start_echo_server();
    let port = port.to_string();
    let dir = tempfile::tempdir().unwrap();
    let env = [("ECHO_PORT", port.as_str())];
    let opener = "const net = require('node:net');\n\
        const open = (host) => new Promise((resolve, reject) => {\n\
          const s = net.connect(Number(process.env.ECHO_PORT), host, () => resolve(s));\n\
          s.on('error', reject);\n\
        });\n";
    function_file(
        dir.path(),
        "echo",
        &env,
        &format!(
            "{opener}module.exports = {{ main: async () => {{\n  const s = await open('127.0.0.1');\n  // Read while open: after the close Node no longer knows the peer.\n  const remote = s.remoteAddress;\n  const port = s.remotePort;\n  const got = new Promise((resolve) => {{ let text = ''; s.setEncoding('utf8'); s.on('data', (d) => {{ text += d; if (text.length >= 8) s.end(); }}); s.on('close', (hadError) => resolve({{ text, hadError, remote, port }})); }});\n  s.write('ping');\n  s.write(Buffer.from('pong'));\n  return got;\n}} }};"
        ),
    );
    function_file(
        dir.path(),
        "denied",
        &env,
        &format!(
            "{opener}module.exports = {{ main: async () => {{\n  try {{ await open('db.internal.example'); return 'connected'; }}\n  catch (e) {{ return `${{e.code}}: ${{e.message}}`; }}\n}} }};"
        ),
    );
    function_file(
        dir.path(),
        "hoarder",
        &env,
        &format!(
            "{opener}module.exports = {{ main: async () => {{\n  const results = await Promise.allSettled([1, 2, 3].map(() => open('127.0.0.1')));\n  for (const r of results) if (r.status === 'fulfilled') r.value.destroy();\n  return results.map((r) => r.status === 'fulfilled' ? 'open' : `${{r.reason.code}}: ${{r.reason.message}}`);\n}} }};"
        ),
    );
    // Names resolved by the test's table (--resolve), so the node decides on
    // addresses without asking any DNS; a refused destination is never
    // dialled.
    function_file(
        dir.path(),
        "metadata",
        &env,
        &format!(
            "{opener}module.exports = {{ main: async () => {{\n  const out = [];\n  for (const host of ['metadata.test', '169.254.169.254', '[::ffff:169.254.169.254]']) {{\n    try {{ await fetch(`http://${{host}}/latest/meta-data/`); out.push('fetched'); }} catch (e) {{ out.push(e.cause.message); }}\n  }}\n  try {{ await open('metadata.test'); out.push('connected'); }} catch (e) {{ out.push(`${{e.code}}: ${{e.message}}`); }}\n  return out;\n}} }};"
        ),
    );
    // A connection kept at module level outlives its request in the warm
    // sandbox (as in Kyma's pod) and is counted in /metrics; a 3 MB write
    // reaches the peer whole though the node takes at most 1 MiB at a time.
    // The sandbox retires after two requests (--warm-max-requests) and its
    // connection closes with it.
    function_file(
        dir.path(),
        "keeper",
        &env,
        &format!(
            "{opener}let kept;\nmodule.exports = {{ main: async () => {{\n  const first = !kept;\n  if (first) kept = await open('127.0.0.1');\n  const payload = Buffer.alloc(3 << 20, 7);\n  const echoed = new Promise((resolve) => {{ let n = 0; const onData = (d) => {{ n += d.length; if (n >= payload.length) {{ kept.removeListener('data', onData); resolve(n); }} }}; kept.on('data', onData); }});\n  kept.write(payload);\n  return {{ first, echoed: await echoed, port: kept.localPort }};\n}} }};"
        ),
    );
    function_file(
        dir.path(),
        "own-port",
        &env,
        "module.exports = { main: async (event) => {\n  const self = event.extensions.request.headers.host;\n  try { await fetch(`http://${self}/metrics`); return 'fetched'; } catch (e) { return e.cause.message; }\n} };",
    );
    let (_up, addr) = start_up(
        dir.path(),
        &[
            "--egress-deny",
            "*.internal.example",
            "--outbound-max-sockets",
            "2",
            "--resolve",
            "metadata.test=169.254.169.254",
            "--warm-max-requests",
            "2",
        ],
    );

    let (status, body) = http_get(&addr, "/default/echo/").expect("echo");
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["text"], "pingpong", "{answer}");
    assert_eq!(answer["hadError"], false);
    assert_eq!(answer["remote"], "127.0.0.1");
    assert_eq!(answer["port"].to_string(), port);

    let (_, body) = http_get(&addr, "/default/denied/").expect("denied");
    assert!(
        body.starts_with("EACCES: egress to db.internal.example is denied by the node's egress policy"),
        "{body}"
    );

    let (_, body) = http_get(&addr, "/default/metadata/").expect("metadata");
    let answer: Vec<String> = serde_json::from_str(&body).unwrap();
    assert_eq!(answer.len(), 4, "{body}");
    for refusal in &answer {
        assert!(
            refusal
                .contains("is denied by the node's egress policy: its address 169.254.169.254 is a link-local address"),
            "{body}"
        );
    }
    assert!(answer[3].starts_with("EACCES: "), "{body}");
    let (_, body) = http_get(&addr, "/default/own-port/").expect("own-port");
    assert!(body.contains(&format!("{addr} is the node's own port")), "{body}");

    let gauge =
        |value: u32| format!("shoal_function_open_connections{{namespace=\"default\",name=\"keeper\"}} {value}");
    let (_, first) = http_get(&addr, "/default/keeper/").expect("keeper");
    let (_, metrics) = http_get(&addr, "/metrics").expect("metrics");
    assert!(metrics.contains(&gauge(1)), "{metrics}");
    assert_eq!(
        echo_connections.load(Ordering::SeqCst),
        1,
        "only the keeper's connection is open"
    );
    let (_, second) = http_get(&addr, "/default/keeper/").expect("keeper again");
    let first: serde_json::Value = serde_json::from_str(&first).unwrap();
    let second: serde_json::Value = serde_json::from_str(&second).unwrap();
    assert_eq!(
        (first["first"].as_bool(), second["first"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(first["echoed"], 3 << 20);
    assert_eq!(second["echoed"], 3 << 20);
    assert_eq!(
        first["port"], second["port"],
        "the same connection served both requests"
    );
    let closed = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        echo_connections.load(Ordering::SeqCst) == 0
    });
    assert!(closed, "the retired sandbox's connection is still open");
    let (_, metrics) = http_get(&addr, "/metrics").expect("metrics");
    assert!(metrics.contains(&gauge(0)), "{metrics}");

    let (_, body) = http_get(&addr, "/default/hoarder/").expect("hoarder");
    let answer: Vec<String> = serde_json::from_str(&body).unwrap();
    assert_eq!(answer.iter().filter(|r| *r == "open").count(), 2, "{body}");
    assert!(
        answer.iter().any(|r| r.starts_with("EMFILE: connection limit reached")),
        "{body}"
    );
}

/// 500 requests awaiting a slow upstream at once hold no thread: a
/// neighbour Function on the same node still answers while they wait.
#[test]
fn functions_awaiting_slow_upstreams_do_not_block_a_neighbour() {
    let _one_at_a_time = OUTBOUND_TESTS.lock().unwrap_or_else(|e| e.into_inner());
    let upstream = start_upstream();
    let dir = tempfile::tempdir().unwrap();
    function_file(
        dir.path(),
        "waiter",
        &[("UPSTREAM", upstream.as_str())],
        "module.exports = { main: async () => (await fetch(process.env.UPSTREAM + '/slow?ms=5000')).text() };",
    );
    function_file(
        dir.path(),
        "neighbour",
        &[],
        "module.exports = { main: () => 'still here' };",
    );
    let (_up, addr) = start_up(dir.path(), &["--max-concurrency", "600", "--pool-slots", "700"]);
    // Started 4 ms apart (a burst of 500 connects overflows the listen
    // queue of a small machine), so all 500 wait on the 5 s upstream at once.
    let waiters: Vec<_> = (0..500)
        .map(|_| {
            let addr = addr.clone();
            std::thread::sleep(std::time::Duration::from_millis(4));
            std::thread::spawn(move || http_get(&addr, "/default/waiter/"))
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let asked = std::time::Instant::now();
    let neighbour = http_get(&addr, "/default/neighbour/");
    let waited = asked.elapsed();
    let answers: Vec<_> = waiters.into_iter().map(|w| w.join().unwrap()).collect();
    assert_eq!(neighbour, Some((200, "still here".to_string())));
    // It answered while the waiters still waited on their 5 s upstream: had
    // they held the node's threads it would have waited for them.
    assert!(
        waited < std::time::Duration::from_secs(4),
        "the neighbour waited {waited:?}"
    );
    let served = answers
        .iter()
        .filter(|a| a.as_ref().is_some_and(|(s, b)| *s == 200 && b == "slow"))
        .count();
    let mut others: Vec<String> = answers
        .iter()
        .filter(|a| !a.as_ref().is_some_and(|(s, b)| *s == 200 && b == "slow"))
        .map(|a| format!("{a:?}"))
        .collect();
    others.dedup();
    assert_eq!(
        served, 500,
        "every waiter got its upstream's answer; others: {others:?}"
    );
}

#[test]
fn git_sources_build_from_a_git_argument_and_from_a_kyma_yaml_with_its_auth_secret() {
    use shoal_tests::git_server::{GitHttpServer, Repo};
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(GitHttpServer::start("dev", "t0ken"));
    let repo = Repo::create(server.root.path(), "functions.git");
    let commit = repo.commit(
        &[(
            "orders/handler.js",
            "module.exports = { main: () => 'orders from git' };\n",
        )],
        "orders",
    );
    let dir = tempfile::tempdir().unwrap();

    // The README's form, against a public (file) remote.
    let public = format!("git+file://{}#main:orders", repo.bare.display());
    let run = shoal(&["build", &public, "-o", "orders.wasm"], dir.path());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(&format!("at {commit} (orders)")), "{}", run.stdout);
    assert!(dir.path().join("orders.wasm").exists());

    // Kyma's gitRepository source with basic auth; in local mode the Secret
    // is a folder of its keys under .secrets/.
    write(dir.path(), ".secrets/git-creds/username", "dev");
    write(dir.path(), ".secrets/git-creds/password", "t0ken");
    let yaml = format!(
        "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: orders\nspec:\n  runtime: nodejs22\n  source:\n    gitRepository:\n      url: {}/functions.git\n      baseDir: orders\n      reference: main\n      auth:\n        type: basic\n        secretName: git-creds\n",
        server.base
    );
    write(dir.path(), "orders.yaml", &yaml);
    let run = shoal(&["build", "orders.yaml", "-o", "from-yaml.wasm"], dir.path());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(&commit), "{}", run.stdout);

    // A wrong password is refused with the reason, never echoing it.
    write(dir.path(), ".secrets/git-creds/password", "wrong-t0ken");
    let run = shoal(&["build", "orders.yaml"], dir.path());
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("authentication failed"), "{}", run.stderr);
    assert!(!run.stderr.contains("wrong-t0ken") && !run.stdout.contains("wrong-t0ken"));
}

/// A private npm registry on 127.0.0.1 holding `@acme/greet`, answering
/// only requests with its token.
fn private_npm_registry(token: &'static str) -> TestNpmRegistry {
    TestNpmRegistry::start(
        &[Package {
            name: "@acme/greet",
            version: "1.0.0",
            files: &[(
                "index.js",
                "module.exports = (who) => `hello ${who} from the private registry`;\n",
            )],
        }],
        Some(token),
    )
}

#[test]
fn dependencies_from_a_private_npm_registry_install_with_an_npmrc() {
    let token = "npm_t0ken_5x9";
    let npm = private_npm_registry(token);
    let registry = npm.url.clone();
    let dir = tempfile::tempdir().unwrap();
    // A fresh cache: the install must go to the registry.
    let cache = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "greeter/handler.js",
        "const greet = require('@acme/greet');\nmodule.exports = { main: () => greet('Kyma') };\n",
    );
    write(
        dir.path(),
        "greeter/package.json",
        r#"{"dependencies": {"@acme/greet": "^1.0.0"}}"#,
    );
    let host = registry.trim_start_matches("http:");
    write(
        dir.path(),
        "npmrc",
        &format!("@acme:registry={registry}/\n{host}/:_authToken={token}\n"),
    );
    let build = |npmrc: Option<&str>| {
        let mut args = vec!["build", "greeter", "-o", "greeter.wasm"];
        if let Some(n) = npmrc {
            args.extend(["--npmrc", n]);
        }
        let out = Command::new(env!("CARGO_BIN_EXE_shoal"))
            .args(&args)
            .current_dir(dir.path())
            .env("SHOAL_CACHE_DIR", cache.path())
            .output()
            .expect("running shoal");
        (
            out.status.code().unwrap_or(-1),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    };
    // Without its token the registry refuses, and the build says so.
    write(dir.path(), "npmrc-no-token", &format!("@acme:registry={registry}/\n"));
    let (code, output) = build(Some("npmrc-no-token"));
    assert_ne!(code, 0, "{output}");
    assert!(output.contains("npm install failed"), "{output}");
    assert!(npm.take_refused() > 0);
    let (code, output) = build(Some("npmrc"));
    assert_eq!(code, 0, "{output}");
    assert!(!output.contains(token), "{output}");
    assert_eq!(npm.take_refused(), 0, "every registry request carried the token");
    let wasm = std::fs::read(dir.path().join("greeter.wasm")).unwrap();
    assert!(wasm.len() > 1000);
}

#[test]
fn up_serves_a_git_function_and_swaps_in_a_new_commit_on_its_branch() {
    use shoal_tests::git_server::Repo;
    let repos = tempfile::tempdir().unwrap();
    let repo = Repo::create(repos.path(), "fns.git");
    repo.commit(
        &[("hello/handler.js", "module.exports = { main: () => 'first commit' };\n")],
        "one",
    );
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "hello.yaml",
        &format!(
            "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: hello\nspec:\n  source:\n    gitRepository:\n      url: file://{}\n      baseDir: hello\n      reference: main\n",
            repo.bare.display()
        ),
    );
    let addr = format!("127.0.0.1:{}", free_port());
    let (_up, _printed) = spawn_up(dir.path(), &addr, &["--git-poll-secs", "1"]);
    let path = "/default/hello/";
    let served = wait_for_body(&addr, path, "first commit", std::time::Duration::from_secs(120));
    // A new commit on main is noticed by the next look at the reference.
    repo.commit(
        &[(
            "hello/handler.js",
            "module.exports = { main: () => 'second commit' };\n",
        )],
        "two",
    );
    let swapped = served && wait_for_body(&addr, path, "second commit", std::time::Duration::from_secs(60));
    assert!(served, "never served the first commit");
    assert!(swapped, "the new commit was not swapped in");
}

/// A request's span carries its request id (the caller's `x-request-id`,
/// or one the node makes up), and the Function's console lines are logged
/// inside it, so one request's lines can be found among many.
#[test]
fn a_functions_console_lines_carry_the_request_id() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "talker.js",
        "module.exports = { main: (event) => { console.log('talking for ' + event.extensions.request.query.who); return 'ok'; } };",
    );
    let addr = format!("127.0.0.1:{}", free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(["up", dir.path().to_str().unwrap(), "--listen", &addr])
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let logged = Arc::new(std::sync::Mutex::new(String::new()));
    let sink = logged.clone();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            sink.lock().unwrap().push_str(&(line + "\n"));
        }
    });
    let up = Up(child);
    assert!(wait_for_body(
        &addr,
        "/default/talker/?who=nobody",
        "ok",
        Duration::from_secs(60)
    ));
    let given = {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            stream,
            "GET /default/talker/?who=alice HTTP/1.1\r\nHost: x\r\nx-request-id: req-4711\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    assert!(given.ends_with("ok"), "{given}");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let text = strip_ansi(&logged.lock().unwrap());
        let line_of = |who: &str| {
            text.lines()
                .find(|l| l.contains(&format!("talking for {who}")))
                .map(str::to_string)
        };
        if let (Some(alice), Some(nobody)) = (line_of("alice"), line_of("nobody")) {
            assert!(alice.contains("request_id=req-4711"), "{alice}");
            assert!(
                alice.contains("namespace=default") && alice.contains("name=talker"),
                "{alice}"
            );
            assert!(
                nobody.contains("request_id=") && !nobody.contains("req-4711"),
                "{nobody}"
            );
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no console lines in:\n{text}");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(up);
}

/// `text` without terminal colour sequences.
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Functions exactly as Kyma CLI v3 writes them (`tests/fixtures/kyma-cli`)
/// pass Shoal's admission rules and build and answer unchanged.
#[test]
fn functions_made_by_kyma_cli_apply_and_run_unchanged() {
    let fixtures = workspace_root().join("tests/fixtures/kyma-cli");
    let dir = tempfile::tempdir().unwrap();
    for (file, name) in [
        ("nodejs22-from-files.yaml", "my-fn"),
        ("nodejs24-defaults.yaml", "hello-fn"),
    ] {
        let text = std::fs::read_to_string(fixtures.join(file)).unwrap();
        let mut function: shoal_api::Function = serde_yaml::from_str(&text).unwrap();
        shoal_api::apply_defaults(&mut function);
        if let Err(e) = shoal_api::validate(&function) {
            panic!("{file}: {e}");
        }
        std::fs::write(dir.path().join(format!("{name}.yaml")), text).unwrap();
    }
    let (up, addr) = start_up(dir.path(), &[]);
    assert!(wait_for_body(
        &addr,
        "/default/my-fn/",
        "Hello World from the Kyma Function my-fn running on nodejs22!",
        Duration::from_secs(60)
    ));
    assert!(wait_for_body(
        &addr,
        "/default/hello-fn/",
        "Hello World!",
        Duration::from_secs(60)
    ));
    drop(up);
}

//! `shoal build` as a user runs it: exit codes and messages.

use std::{path::Path, process::Command};

use shoal_oci::{Credentials, Registry, Transport};
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
    assert!(
        run.stdout.contains("built default/hello (dynamic linking):"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("sha256:"), "{}", run.stdout);
    assert!(run.stdout.contains(" s (npm "), "{}", run.stdout);
    let wasm = std::fs::read(dir.path().join("hello.wasm")).unwrap();
    assert_eq!(&wasm[..4], b"\0asm");
}

#[test]
fn builds_a_kyma_yaml_with_dependencies() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = write(
        dir.path(),
        "fn.yaml",
        &function_yaml(
            "nodejs22",
            "const _ = require('lodash');\nmodule.exports = { main: () => _.kebabCase('Hello World') };",
            Some(r#"{ "name": "probe", "dependencies": { "lodash": "^4.17.20" } }"#),
        ),
    );
    let run = shoal(&["build", &yaml, "-o", "out.wasm"], dir.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("built shop/probe"), "{}", run.stdout);
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
    let pinned = run
        .stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("pushed "))
        .expect("pushed line")
        .to_string();
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

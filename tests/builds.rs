//! Builds through the real pipeline (npm, esbuild, javy-codegen): Kyma's
//! documented lodash samples, and every kind of bad input with its message.

use shoal_build::{BuildError, BuildInputs};
use shoal_tests::{Req, build, builder, invoke, runtime};

const LODASH_DEPS_CJS: &str =
    r#"{ "name": "hellobasic", "version": "0.0.1", "dependencies": { "lodash": "^4.17.20" } }"#;
const LODASH_DEPS_ESM: &str =
    r#"{ "name": "hellobasic", "version": "0.0.1", "type": "module", "dependencies": { "lodash": "^4.17.20" } }"#;

#[tokio::test]
async fn kyma_lodash_sample_commonjs() {
    let module = build(
        r#"const _ = require('lodash')
module.exports = {
  main: function(event, context) {
    return _.kebabCase('Hello World from Node.js Function');
  }
}"#,
        Some(LODASH_DEPS_CJS),
    )
    .await;
    let r = invoke(&module, Req::get("/")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text(), "hello-world-from-node-js-function");
}

#[tokio::test]
async fn kyma_lodash_sample_esm() {
    let module = build(
        r#"import _ from "lodash";
export function main(event, context) {
  return _.kebabCase('Hello World from Node.js Function');
}"#,
        Some(LODASH_DEPS_ESM),
    )
    .await;
    let r = invoke(&module, Req::get("/")).await;
    assert_eq!(r.text(), "hello-world-from-node-js-function");
}

#[tokio::test]
async fn a_function_module_is_its_bytecode_importing_the_shared_engine() {
    let built = builder()
        .build(&inputs("module.exports = { main: () => ({ small: true }) };", None))
        .await
        .unwrap();
    // The engine (megabytes) is not in the module: a node holds one for
    // every Function. What is there is bytecode: the prelude's (Express's
    // request and response, the tracer: about 70 KB) and the Function's.
    assert!(built.wasm.len() < 96 * 1024, "{} bytes", built.wasm.len());
    let module = runtime().load(&built.wasm).unwrap();
    assert_eq!(invoke(&module, Req::get("/")).await.text(), r#"{"small":true}"#);
    // A module that does not import the engine (here, an empty one) is not
    // a Function module; nor is one importing anything else (the engine
    // itself imports WASI and the host ABI).
    let empty = runtime()
        .load(b"\0asm\x01\0\0\0")
        .err()
        .expect("an empty module is refused");
    assert!(
        shoal_runtime::causes(&empty).contains("does not import the engine"),
        "{empty:?}"
    );
    let engine = runtime()
        .load(shoal_engine::ENGINE_WASM)
        .err()
        .expect("the engine alone is refused");
    assert!(
        shoal_runtime::causes(&engine).contains("may import only the engine"),
        "{engine:?}"
    );
}

fn inputs(source: &str, deps: Option<&str>) -> BuildInputs {
    BuildInputs {
        source: source.into(),
        dependencies: deps.map(str::to_string),
        runtime: "nodejs22".into(),
        files: Default::default(),
    }
}

async fn build_error(source: &str, deps: Option<&str>) -> BuildError {
    match builder().build(&inputs(source, deps)).await {
        Ok(_) => panic!("expected the build of {source:?} to fail"),
        Err(e) => e,
    }
}

#[tokio::test]
async fn a_syntax_error_names_the_line_and_column() {
    let e = build_error("module.exports = {\n  main(event) {\n    return 1 +;\n  }\n};\n", None).await;
    assert!(matches!(e, BuildError::Bundle(_)), "{e:?}");
    let message = e.to_string();
    assert!(message.contains("handler.js:3:15"), "{message}");
    assert!(message.contains("Unexpected"), "{message}");
}

#[tokio::test]
async fn empty_source_is_refused() {
    let e = build_error("  \n", None).await;
    assert!(matches!(e, BuildError::Invalid(_)), "{e:?}");
    assert!(e.to_string().contains("source is empty"), "{e}");
}

#[tokio::test]
async fn unknown_and_unserved_runtimes_are_refused() {
    let mut bad = inputs("module.exports = { main: () => 1 };", None);
    bad.runtime = "ruby33".into();
    let e = builder().build(&bad).await.unwrap_err();
    assert!(e.to_string().contains("\"ruby33\" is unknown"), "{e}");
    bad.runtime = "python312".into();
    let e = builder().build(&bad).await.unwrap_err();
    assert!(e.to_string().contains("Shoal runs Node.js Functions only"), "{e}");
}

#[tokio::test]
async fn malformed_package_json_is_refused() {
    let e = build_error(
        "module.exports = { main: () => 1 };",
        Some("{ \"dependencies\": { \"lodash\": }"),
    )
    .await;
    assert!(matches!(e, BuildError::PackageJson(_)), "{e:?}");
    assert!(e.to_string().contains("not valid JSON"), "{e}");
    let e = build_error("module.exports = { main: () => 1 };", Some("lodash")).await;
    assert!(e.to_string().contains("start with '{'"), "{e}");
}

#[tokio::test]
async fn a_missing_npm_package_is_named() {
    let e = build_error(
        "module.exports = { main: () => 1 };",
        Some(r#"{"dependencies": {"shoal-no-such-package-4f1c9a": "^1.0.0"}}"#),
    )
    .await;
    assert!(matches!(e, BuildError::Npm(_)), "{e:?}");
    let message = e.to_string();
    assert!(message.contains("package not found"), "{message}");
    assert!(message.contains("shoal-no-such-package-4f1c9a"), "{message}");
}

#[tokio::test]
async fn a_node_builtin_a_function_cannot_use_builds_and_throws_when_called() {
    let module = build(
        r#"const cp = require('child_process');
module.exports = { main() {
  try { cp.execSync('id'); return 'ran'; } catch (e) { return `${e.code}: ${e.message}`; }
} };"#,
        None,
    )
    .await;
    assert_eq!(
        invoke(&module, Req::get("/")).await.text(),
        "ERR_METHOD_NOT_IMPLEMENTED: child_process.execSync() is not available in Shoal: a Function cannot start processes"
    );
}

#[tokio::test]
async fn a_builtin_shoal_does_not_know_builds_with_a_warning() {
    // A name a newer Node may add: the build warns, the module loads, and
    // only using it fails.
    let source = r#"const future = require('node:shoal-future-module');
module.exports = { main() {
  try { future.open(); return 'opened'; } catch (e) { return e.code; }
} };"#;
    let built = builder()
        .build(&inputs(source, None))
        .await
        .expect("an unknown built-in does not fail the build");
    assert_eq!(built.warnings.len(), 1, "{:?}", built.warnings);
    assert!(
        built.warnings[0].contains("built-in module \"shoal-future-module\" is not available in Shoal"),
        "{:?}",
        built.warnings
    );
    let module = runtime().load(&built.wasm).unwrap();
    assert_eq!(
        invoke(&module, Req::get("/")).await.text(),
        "ERR_METHOD_NOT_IMPLEMENTED"
    );
}

#[tokio::test]
async fn create_require_gives_the_builtins_a_function_names() {
    // ESM code that requires built-ins through createRequire: the bundler
    // sees the names in the require('...') calls and bundles them.
    let module = build(
        r#"import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
export function main() {
  const crypto = require('node:crypto');
  const out = [crypto.createHash('sha256').update('x').digest('hex').slice(0, 8), require('os').EOL === '\n'];
  try { require('./data.json'); } catch (e) { out.push(e.code); }
  return out;
}"#,
        None,
    )
    .await;
    assert_eq!(
        invoke(&module, Req::get("/")).await.json(),
        serde_json::json!(["2d711642", true, "MODULE_NOT_FOUND"])
    );
}

/// The Node layer's module tests (`tests/node-modules`, one file per
/// module): every case under real Node.js and under Shoal's QuickJS engine,
/// and every built-in bundled.
#[test]
fn the_node_module_tests_pass_under_node_and_under_the_engine() {
    let dir = shoal_tests::workspace_root().join("tests/node-modules");
    for args in [
        &["run.mjs"][..],
        &["run.mjs", "--engine=quickjs"],
        &["bundle-check.mjs"],
    ] {
        let out = std::process::Command::new("node")
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("node runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "node {args:?} failed:\n{text}");
        assert!(text.contains(" passed, 0 failed"), "node {args:?}:\n{text}");
    }
}

/// Node 22's built-in modules and their exports, and where Shoal's still
/// differ (tests/node-modules/: gen-builtin-shapes.mjs writes the first,
/// the module tests keep the second).
fn node_builtins() -> (serde_json::Value, serde_json::Value) {
    let dir = shoal_tests::workspace_root().join("tests/node-modules");
    let read = |name: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    (read("builtin-shapes.json"), read("builtin-gaps.json"))
}

#[tokio::test]
async fn a_function_requiring_every_node_builtin_builds_and_each_has_node_22s_exports() {
    let (shapes, gaps) = node_builtins();
    let names: Vec<&str> = shapes["modules"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert!(names.len() >= 70, "Node 22 has more built-ins than {}", names.len());
    // Requires every one (as a bundler sees them: literal require calls) and
    // calls nothing; main reports each module's own keys and their typeof.
    let requires: Vec<String> = names
        .iter()
        .map(|name| format!("  {name:?}: require({name:?}),"))
        .collect();
    let source = format!(
        r#"const modules = {{
{}
}};
const FUNCTION_OWN = ["length", "name", "prototype", "arguments", "caller"];
const typeOf = (read) => {{ try {{ const v = read(); return v === null ? "null" : typeof v; }} catch {{ return "throws"; }} }};
module.exports = {{ main() {{
  const shapes = {{}};
  for (const [name, m] of Object.entries(modules)) {{
    const keys = {{}};
    for (const k of Object.getOwnPropertyNames(m)) if (typeof m !== "function" || !FUNCTION_OWN.includes(k)) keys[k] = typeOf(() => m[k]);
    shapes[name] = keys;
  }}
  return shapes;
}} }};"#,
        requires.join("\n")
    );
    let built = builder()
        .build(&inputs(&source, None))
        .await
        .unwrap_or_else(|e| panic!("requiring every Node 22 built-in must build: {e}"));
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    let module = runtime().load(&built.wasm).unwrap();
    let r = invoke(&module, Req::get("/")).await;
    assert_eq!(r.status, 200, "{}\n{}", r.text(), r.logs);
    let found = r.json();

    let list = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    let mut problems = Vec::new();
    for name in &names {
        let node = shapes["modules"][*name]["keys"].as_object().unwrap();
        let Some(shoal) = found[*name].as_object() else {
            problems.push(format!("{name}: not loaded"));
            continue;
        };
        let known = &gaps["modules"][*name];
        let (known_missing, known_extra, known_wrong) = (
            list(&known["missing"]),
            list(&known["extra"]),
            list(&known["wrongType"]),
        );
        for (key, node_type) in node {
            match shoal.get(key).and_then(|t| t.as_str()) {
                None if !known_missing.contains(key) => problems.push(format!("{name}: lacks {key}")),
                Some(t) if t != node_type && !known_wrong.contains(&format!("{key}: {t}")) => {
                    problems.push(format!("{name}.{key} is {t}, in Node 22 {node_type}"))
                }
                _ => {}
            }
        }
        for key in shoal.keys() {
            if !node.contains_key(key) && !known_extra.contains(key) {
                problems.push(format!("{name}: has {key}, which Node 22's has not"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn a_missing_main_is_a_build_error() {
    let e = build_error("module.exports = { handler: () => 1 };", None).await;
    assert!(matches!(e, BuildError::NoMain(_)), "{e:?}");
    assert!(e.to_string().contains("does not export a main function"), "{e}");
    let e = build_error("module.exports = { main: 'not callable' };", None).await;
    assert!(e.to_string().contains("main is string"), "{e}");
}

#[tokio::test]
async fn code_that_always_throws_at_load_is_a_build_error() {
    let e = build_error(
        "throw new Error('broken at load');\nmodule.exports = { main() {} };",
        None,
    )
    .await;
    assert!(matches!(e, BuildError::NoMain(_)), "{e:?}");
    assert!(e.to_string().contains("broken at load"), "{e}");
}

#[tokio::test]
async fn code_that_needs_its_env_while_loading_builds_with_a_warning_not_an_error() {
    // Common in real Functions: configuration parsed at module load.
    let source = "const routes = JSON.parse(process.env.ROUTES);\nmodule.exports = { main: () => routes.length };";
    let built = builder()
        .build(&inputs(source, None))
        .await
        .expect("it builds: its env comes at run time");
    assert_eq!(built.warnings.len(), 1, "{:?}", built.warnings);
    assert!(
        built.warnings[0].contains("reads ROUTES from process.env while loading"),
        "{:?}",
        built.warnings
    );
    // Given the env (its plain spec.env, as shoal up and shoal build do), the
    // check runs in full.
    let env = std::collections::BTreeMap::from([("ROUTES".to_string(), "[1,2]".to_string())]);
    let checked = builder()
        .build_with_env(&inputs(source, None), &env)
        .await
        .expect("builds");
    assert!(checked.warnings.is_empty(), "{:?}", checked.warnings);
}

#[tokio::test]
async fn a_folder_builds_with_its_local_modules_and_data_but_nothing_outside_it() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "handler.js",
        r#"const { total } = require('./lib/sum');
const fs = require('fs');
module.exports = { main: () => ({
  total: total(require('./data/items.json')),
  note: fs.readFileSync(__dirname + '/data/note.txt', 'utf8'),
  escaped: fs.existsSync(__dirname + '/secret-link'),
}) };"#,
    );
    write("lib/sum.js", "exports.total = (xs) => xs.reduce((a, b) => a + b, 0);");
    write("data/items.json", "[1, 2, 39]");
    write("data/note.txt", "kept with the code");
    write("node_modules/left-out/index.js", "module.exports = 1;");
    write(".git/HEAD", "ref: refs/heads/main");
    std::os::unix::fs::symlink("/etc/hostname", dir.path().join("secret-link")).unwrap();

    let source = shoal_build::load_function(dir.path()).unwrap();
    let names: Vec<&str> = source.inputs.files.keys().map(String::as_str).collect();
    assert_eq!(names, ["data/items.json", "data/note.txt", "lib/sum.js"]);
    let built = builder().build(&source.inputs).await.unwrap();
    let module = runtime().load(&built.wasm).unwrap();
    let r = invoke(&module, Req::get("/")).await;
    assert_eq!(r.text(), r#"{"total":42,"note":"kept with the code","escaped":false}"#);

    // A handler.js or package.json that is a link out of the folder (a
    // checkout can hold one) is refused, not followed.
    for linked in ["handler.js", "package.json"] {
        let other = tempfile::tempdir().unwrap();
        std::fs::write(other.path().join("handler.js"), "module.exports = { main: () => 1 };").unwrap();
        let _ = std::fs::remove_file(other.path().join(linked));
        std::os::unix::fs::symlink("/etc/hostname", other.path().join(linked)).unwrap();
        let err = shoal_build::load_function(other.path()).expect_err("refused");
        assert!(
            err.to_string().contains("is a symbolic link out of its folder"),
            "{err}"
        );
    }
    // Links that stay inside are followed: a mounted ConfigMap's keys are
    // links into its `..data` folder.
    let mounted = tempfile::tempdir().unwrap();
    std::fs::create_dir(mounted.path().join("..data")).unwrap();
    std::fs::write(
        mounted.path().join("..data/handler.js"),
        "module.exports = { main: () => 1 };",
    )
    .unwrap();
    std::os::unix::fs::symlink("..data/handler.js", mounted.path().join("handler.js")).unwrap();
    let source = shoal_build::load_function(mounted.path()).expect("a link inside the folder");
    assert!(source.inputs.source.contains("main"));
}

/// A Git Function's module, built at `reference`, answering GET /.
async fn build_from_git(
    url: &str,
    reference: &str,
    base_dir: &str,
    auth: shoal_build::git::GitAuth,
) -> Result<String, shoal_build::BuildError> {
    let spec = shoal_build::git::GitSpec {
        url: url.to_string(),
        reference: reference.to_string(),
        base_dir: base_dir.to_string(),
    };
    let mut source = shoal_build::git_function(spec);
    let work = tempfile::tempdir().unwrap();
    shoal_build::fetch_git_source(&mut source, auth, work.path()).await?;
    let built = builder().build(&source.inputs).await?;
    let module = runtime().load(&built.wasm).unwrap();
    Ok(invoke(&module, Req::get("/")).await.text())
}

fn orders_handler(version: &str) -> String {
    format!("const {{ label }} = require('./lib/label');\nmodule.exports = {{ main: () => label('{version}') }};\n")
}

#[tokio::test]
async fn a_private_repository_over_http_builds_at_a_branch_a_tag_and_a_commit() {
    use shoal_build::git::GitAuth;
    use shoal_tests::git_server::{GitHttpServer, Repo};

    let server = GitHttpServer::start("dev", "s3cret-t0ken").await;
    let repo = Repo::create(server.root.path(), "shop.git");
    let label = ("orders/lib/label.js", "exports.label = (v) => 'orders ' + v;\n");
    let first = repo.commit(&[("orders/handler.js", &orders_handler("v1")), label], "v1");
    repo.tag("v1.0.0");
    repo.commit(&[("orders/handler.js", &orders_handler("v2"))], "v2");
    let url = format!("{}/shop.git", server.base);
    let auth = GitAuth::Basic {
        username: "dev".into(),
        password: "s3cret-t0ken".into(),
    };

    assert_eq!(
        build_from_git(&url, "main", "orders", auth.clone()).await.unwrap(),
        "orders v2"
    );
    assert_eq!(
        build_from_git(&url, "v1.0.0", "/orders/", auth.clone()).await.unwrap(),
        "orders v1"
    );
    assert_eq!(
        build_from_git(&url, &first, "orders", auth.clone()).await.unwrap(),
        "orders v1"
    );
    assert_eq!(
        build_from_git(&url, &first[..10], "orders", auth.clone())
            .await
            .unwrap(),
        "orders v1"
    );

    // What a user gets wrong, each with its own message, and no secret in any.
    let wrong = GitAuth::Basic {
        username: "dev".into(),
        password: "not-the-token".into(),
    };
    let messages = [
        build_from_git(&url, "main", "orders", wrong).await.unwrap_err(),
        build_from_git(&url, "release-9", "orders", auth.clone())
            .await
            .unwrap_err(),
        build_from_git(&url, "main", "payments", auth.clone())
            .await
            .unwrap_err(),
        build_from_git(&url, "main", "orders/lib", auth.clone())
            .await
            .unwrap_err(),
        build_from_git(&format!("{}/nowhere.git", server.base), "main", "/", auth.clone())
            .await
            .unwrap_err(),
    ]
    .map(|e| shoal_runtime::causes(&e));
    assert!(messages[0].contains("authentication failed"), "{}", messages[0]);
    assert!(
        messages[1].contains("reference \"release-9\" not found"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].contains("baseDir \"payments\" does not exist in commit"),
        "{}",
        messages[2]
    );
    assert!(messages[3].contains("has no handler.js"), "{}", messages[3]);
    assert!(messages[4].contains("unreachable"), "{}", messages[4]);
    for m in &messages {
        assert!(!m.contains("s3cret") && !m.contains("not-the-token"), "{m}");
    }
}

#[tokio::test]
async fn a_repository_over_ssh_builds_with_an_encrypted_key() {
    use shoal_build::git::GitAuth;
    use shoal_tests::git_server::{Repo, SshServer};

    let Some(server) = SshServer::start() else { return };
    let repo = Repo::create(server.root.path(), "shop.git");
    repo.commit(
        &[
            ("handler.js", &orders_handler("over ssh")),
            ("lib/label.js", "exports.label = (v) => 'orders ' + v;\n"),
        ],
        "first",
    );
    let url = format!("{}{}", server.base, repo.bare.display());
    let key = GitAuth::Key {
        key: server.key.clone(),
        passphrase: Some(SshServer::PASSPHRASE.into()),
    };
    assert_eq!(build_from_git(&url, "main", "/", key).await.unwrap(), "orders over ssh");

    let stranger = GitAuth::Key {
        key: server.stranger_key.clone(),
        passphrase: None,
    };
    let refused = shoal_runtime::causes(&build_from_git(&url, "main", "/", stranger).await.unwrap_err());
    assert!(refused.contains("authentication failed"), "{refused}");
    let wrong_passphrase = GitAuth::Key {
        key: server.key.clone(),
        passphrase: Some("guess".into()),
    };
    let refused = shoal_runtime::causes(&build_from_git(&url, "main", "/", wrong_passphrase).await.unwrap_err());
    assert!(refused.contains("authentication failed"), "{refused}");
    assert!(
        !refused.contains("guess") && !refused.contains("OPENSSH PRIVATE KEY"),
        "{refused}"
    );
}

/// Inputs whose `files` hold npm packages under node_modules, as npm would
/// install them (there is no package.json with dependencies, so no npm runs).
fn with_packages(source: &str, files: &[(&str, &str)]) -> BuildInputs {
    let mut inputs = inputs(source, None);
    for (path, text) in files {
        inputs.files.insert((*path).to_string(), text.as_bytes().to_vec());
    }
    inputs
}

#[tokio::test]
async fn a_package_requiring_what_is_not_installed_builds_and_throws_only_when_that_runs() {
    // An optional dependency, a peer, a file the package does not ship: in
    // Node each require()/import() fails only when its line runs.
    let inputs = with_packages(
        r#"const pkg = require('uses-optional');
module.exports = { main: async () => {
  const out = { tried: pkg.tried };
  try { pkg.later(); } catch (e) { out.later = [e.code, e.message, e.requireStack]; }
  try { await pkg.importLater(); } catch (e) { out.importLater = [e.code, e.message]; }
  try { pkg.relative(); } catch (e) { out.relative = e.code; }
  return out;
} };"#,
        &[
            (
                "node_modules/uses-optional/package.json",
                r#"{"name":"uses-optional","version":"1.0.0"}"#,
            ),
            (
                "node_modules/uses-optional/index.js",
                r#"let tried;
try { tried = require('not-installed-a'); } catch (e) { tried = e.code; }
exports.tried = tried;
exports.later = () => require('not-installed-b');
exports.importLater = () => import('not-installed-c');
exports.relative = () => require('./lib-cov/missing');"#,
            ),
        ],
    );
    let built = builder()
        .build(&inputs)
        .await
        .expect("the package's missing modules do not fail the build");
    for name in ["not-installed-b", "not-installed-c", "./lib-cov/missing"] {
        assert!(
            built.warnings.iter().any(|w| w.contains(&format!(
                "\"{name}\" is not installed (wanted by node_modules/uses-optional/index.js)"
            ))),
            "{name}: {:?}",
            built.warnings
        );
    }
    let module = runtime().load(&built.wasm).unwrap();
    assert_eq!(
        invoke(&module, Req::get("/")).await.json(),
        serde_json::json!({
            "tried": "MODULE_NOT_FOUND",
            "later": ["MODULE_NOT_FOUND", "Cannot find module 'not-installed-b'\nRequire stack:\n- /usr/src/app/function/node_modules/uses-optional/index.js", ["/usr/src/app/function/node_modules/uses-optional/index.js"]],
            "importLater": ["ERR_MODULE_NOT_FOUND", "Cannot find package 'not-installed-c' imported from /usr/src/app/function/node_modules/uses-optional/index.js"],
            "relative": "MODULE_NOT_FOUND",
        })
    );
}

#[tokio::test]
async fn the_handler_requiring_a_package_that_is_not_installed_is_a_build_error() {
    // The Function's own code: a package missing from its package.json is a
    // mistake worth a failed build, even on a line that may not run.
    let e = build_error(
        "module.exports = { main: (event) => event.data ? require('shoal-not-installed-9d2e') : 0 };",
        None,
    )
    .await;
    assert!(matches!(e, BuildError::Bundle(_)), "{e:?}");
    assert!(
        e.to_string()
            .contains(r#"Could not resolve "shoal-not-installed-9d2e""#),
        "{e}"
    );
}

#[tokio::test]
async fn package_modules_see_their_own_location_and_files_as_in_kymas_pod() {
    // Each module has its own __dirname and import.meta.url; its package's
    // data files, listings and require.resolve() answer as they would with
    // node_modules on disk under /usr/src/app/function.
    let inputs = with_packages(
        r#"const fs = require('fs');
const tables = require('tables');
module.exports = { main: async () => {
  const esm = await import('esm-located');
  return {
    dir: tables.dir, file: tables.file, version: tables.version, font: tables.font,
    listing: tables.listing, resolved: tables.resolved, resolvedPackage: tables.resolvedPackage,
    computed: tables.load('blue'), parent: tables.hasParent, id: tables.id,
    url: esm.url, dirname: esm.dirname, handlerDir: __dirname,
    codeRead: (() => { try { fs.readFileSync(tables.file); return 'read'; } catch (e) { return e.code; } })(),
    missing: (() => { try { require.resolve('not-there'); } catch (e) { return e.code; } })(),
  };
} };"#,
        &[
            (
                "node_modules/tables/package.json",
                r#"{"name":"tables","version":"2.4.6","main":"lib/index.js"}"#,
            ),
            (
                "node_modules/tables/lib/index.js",
                r#"const fs = require('fs');
const path = require('path');
exports.dir = __dirname;
exports.file = __filename;
exports.version = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version;
exports.font = fs.readFileSync(path.join(__dirname, '../fonts/Standard.flf'), 'utf8').trim();
exports.listing = fs.readdirSync(path.join(__dirname, 'colors')).sort();
exports.resolved = require.resolve('./colors/red');
exports.resolvedPackage = require.resolve('tables/package.json');
exports.load = (name) => require(path.join(__dirname, 'colors', name));
exports.hasParent = Boolean(module.parent);
exports.id = module.id;"#,
            ),
            ("node_modules/tables/lib/colors/red.js", "module.exports = '#f00';"),
            ("node_modules/tables/lib/colors/blue.js", "module.exports = '#00f';"),
            ("node_modules/tables/fonts/Standard.flf", "flf2a$ standard\n"),
            (
                "node_modules/esm-located/package.json",
                r#"{"name":"esm-located","version":"1.0.0","type":"module","exports":"./index.js"}"#,
            ),
            (
                "node_modules/esm-located/index.js",
                "export const url = import.meta.url;\nexport const dirname = import.meta.dirname;\n",
            ),
        ],
    );
    let module = runtime().load(&builder().build(&inputs).await.unwrap().wasm).unwrap();
    assert_eq!(
        invoke(&module, Req::get("/")).await.json(),
        serde_json::json!({
            "dir": "/usr/src/app/function/node_modules/tables/lib",
            "file": "/usr/src/app/function/node_modules/tables/lib/index.js",
            "version": "2.4.6",
            "font": "flf2a$ standard",
            "listing": ["blue.js", "red.js"],
            "resolved": "/usr/src/app/function/node_modules/tables/lib/colors/red.js",
            "resolvedPackage": "/usr/src/app/function/node_modules/tables/package.json",
            "computed": "#00f",
            "parent": true,
            "id": "/usr/src/app/function/node_modules/tables/lib/index.js",
            "url": "file:///usr/src/app/function/node_modules/esm-located/index.js",
            "dirname": "/usr/src/app/function/node_modules/esm-located",
            "handlerDir": "/usr/src/app/function",
            "codeRead": "ERR_METHOD_NOT_IMPLEMENTED",
            "missing": "MODULE_NOT_FOUND",
        })
    );
}

#[tokio::test]
async fn commonjs_without_use_strict_runs_sloppy_where_its_code_relies_on_it() {
    // The bundle is one ES module, compiled strict; a package module that
    // shows it needs sloppy mode (a plain call's `this`, copying a method
    // named `length` onto a function, a `with` statement) runs as Node runs it.
    let inputs = with_packages(
        r#"const s = require('sloppy-old');
module.exports = { main: () => ({ shared: s.shared, copied: s.copied, withA: s.withA, strictThis: require('strict-new').thisInPlainCall }) };"#,
        &[
            (
                "node_modules/sloppy-old/package.json",
                r#"{"name":"sloppy-old","version":"0.3.1"}"#,
            ),
            (
                "node_modules/sloppy-old/index.js",
                r#"function holder() { this.__sloppySharedKey = 'on the global object'; return this.__sloppySharedKey; }
exports.shared = holder();
function Assertion() {}
Assertion.prototype.length = function (n) { return n; };
var copy = function () {};
for (var key in Assertion.prototype) copy[key] = Assertion.prototype[key];
exports.copied = typeof copy.length;
var scope = { a: 'from with' };
with (scope) { exports.withA = a; }"#,
            ),
            (
                "node_modules/strict-new/package.json",
                r#"{"name":"strict-new","version":"1.0.0"}"#,
            ),
            (
                "node_modules/strict-new/index.js",
                "'use strict';\nfunction plain() { return this; }\nexports.thisInPlainCall = String(plain());",
            ),
        ],
    );
    let module = runtime().load(&builder().build(&inputs).await.unwrap().wasm).unwrap();
    assert_eq!(
        invoke(&module, Req::get("/")).await.json(),
        serde_json::json!({ "shared": "on the global object", "copied": "number", "withA": "from with", "strictThis": "undefined" })
    );
}

//! Builds through the real pipeline (npm, esbuild, javy-codegen): Kyma's
//! documented lodash samples, and every kind of bad input with its message.

use shoal_build::{BuildError, BuildInputs, Linking};
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
async fn static_linking_builds_a_self_contained_module() {
    let inputs = inputs("module.exports = { main: () => ({ linked: 'static' }) };", None);
    let dynamic = builder().build(&inputs, Linking::Dynamic).await.unwrap();
    let fixed = builder().build(&inputs, Linking::Static).await.unwrap();
    // The static module carries the whole engine; the dynamic one only bytecode.
    assert!(fixed.wasm.len() > 1_000_000, "static: {}", fixed.wasm.len());
    assert!(dynamic.wasm.len() < 64 * 1024, "dynamic: {}", dynamic.wasm.len());
    let module = runtime().load(&fixed.wasm).unwrap();
    assert!(!module.is_dynamic());
    assert_eq!(invoke(&module, Req::get("/")).await.text(), r#"{"linked":"static"}"#);
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
    match builder().build(&inputs(source, deps), Linking::Dynamic).await {
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
    let e = builder().build(&bad, Linking::Dynamic).await.unwrap_err();
    assert!(e.to_string().contains("\"ruby33\" is unknown"), "{e}");
    bad.runtime = "python312".into();
    let e = builder().build(&bad, Linking::Dynamic).await.unwrap_err();
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
async fn a_node_builtin_the_engine_lacks_is_named() {
    let e = build_error(
        "const cp = require('child_process');\nmodule.exports = { main: () => cp.execSync('id') };",
        None,
    )
    .await;
    assert!(matches!(e, BuildError::NodeBuiltin(_)), "{e:?}");
    assert!(e.to_string().contains("built-in module \"child_process\""), "{e}");
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
        .build(&inputs(source, None), Linking::Dynamic)
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
        .build_with_env(&inputs(source, None), Linking::Dynamic, &env)
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
    let built = builder().build(&source.inputs, Linking::Dynamic).await.unwrap();
    let module = runtime().load(&built.wasm).unwrap();
    let r = invoke(&module, Req::get("/")).await;
    assert_eq!(r.text(), r#"{"total":42,"note":"kept with the code","escaped":false}"#);
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
    let built = builder().build(&source.inputs, Linking::Dynamic).await?;
    let module = runtime().load(&built.wasm).unwrap();
    Ok(invoke(&module, Req::get("/")).await.text())
}

fn orders_handler(version: &str) -> String {
    format!("const {{ label }} = require('./lib/label');\nmodule.exports = {{ main: () => label('{version}') }};\n")
}

/// The whole error chain as a user reads it.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
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
    .map(|e| chain(&e));
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
    let refused = chain(&build_from_git(&url, "main", "/", stranger).await.unwrap_err());
    assert!(refused.contains("authentication failed"), "{refused}");
    let wrong_passphrase = GitAuth::Key {
        key: server.key.clone(),
        passphrase: Some("guess".into()),
    };
    let refused = chain(&build_from_git(&url, "main", "/", wrong_passphrase).await.unwrap_err());
    assert!(refused.contains("authentication failed"), "{refused}");
    assert!(
        !refused.contains("guess") && !refused.contains("OPENSSH PRIVATE KEY"),
        "{refused}"
    );
}

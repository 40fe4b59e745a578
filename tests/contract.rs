//! The Kyma Node.js handler contract, checked on real modules in wasmtime:
//! each test builds JavaScript with the real builder and sends envelope
//! requests through a fresh sandbox, as a node does.

use serde_json::json;
use shoal_runtime::FunctionModule;
use shoal_tests::{Req, build, invoke};
use tokio::sync::OnceCell;

const CONTRACT_CJS: &str = r#"
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
module.exports = {
  main: async function (event, context, sendResponse) {
    const req = event.extensions.request;
    switch (req.path) {
      case "/echo":
        return {
          data: event.data instanceof Uint8Array ? Array.from(event.data) : event.data,
          type: event.data instanceof Uint8Array ? "bytes" : typeof event.data,
          method: req.method, path: req.path, url: req.url, query: req.query,
          contentType: req.get("Content-Type"), custom: req.headers["x-custom"],
        };
      case "/context":
        return { context, greeting: process.env.GREETING, funcName: process.env.FUNC_NAME };
      case "/string": return "plain text";
      case "/undefined": return undefined;
      case "/promise":
        return new Promise((resolve) => setTimeout(() => resolve({ late: true }), 20));
      case "/timers": {
        const order = [];
        setTimeout(() => order.push("b"), 20);
        setTimeout(() => order.push("a"), 5);
        await sleep(40);
        return order;
      }
      case "/helpers":
        event.setResponseStatus(201);
        event.setResponseHeader("X-Custom", "yes");
        event.setResponseContentType("text/plain");
        return "created";
      case "/express":
        event.extensions.response.status(202).set("x-express", "1").send({ via: "express" });
        return;
      case "/send-response":
        sendResponse({ sent: true }, 203, { "x-sent": "1" });
        return "ignored";
      case "/send-status":
        sendResponse(undefined, 404);
        return;
      case "/throw-string": throw "bad input, try again";
      case "/throw-error": throw new Error("secret internal detail");
      case "/reject": return Promise.reject(new Error("rejected"));
      case "/cloudevent":
        return {
          type: event["ce-type"], source: event["ce-source"], id: event["ce-id"],
          specversion: event["ce-specversion"], eventtypeversion: event["ce-eventtypeversion"],
          time: event["ce-time"], datacontenttype: event["ce-datacontenttype"], data: event.data,
        };
      case "/emit":
        await event.emitCloudEvent("order.created", "shop", { id: 7 });
        return "emitted";
      case "/log":
        console.log("hello from the Function");
        return "logged";
      default:
        return { unknown: req.path };
    }
  },
};
"#;

async fn contract() -> &'static FunctionModule {
    static MODULE: OnceCell<FunctionModule> = OnceCell::const_new();
    MODULE.get_or_init(|| build(CONTRACT_CJS, None)).await
}

#[tokio::test]
async fn json_body_is_parsed_and_request_fields_are_visible() {
    let r = invoke(
        contract().await,
        Req::post(
            "/echo",
            "application/json; charset=utf-8",
            r#"{"name":"Ada","n":[1,2]}"#,
        )
        .query("a=1&a=2&b[c]=3&q=hello%20world")
        .header("x-custom", "abc"),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json; charset=utf-8"));
    let body = r.json();
    assert_eq!(body["data"], json!({"name": "Ada", "n": [1, 2]}));
    assert_eq!(body["method"], "POST");
    assert_eq!(body["path"], "/echo");
    assert_eq!(body["url"], "/echo?a=1&a=2&b[c]=3&q=hello%20world");
    assert_eq!(
        body["query"],
        // Express 5's simple query parser: brackets stay in the key.
        json!({"a": ["1", "2"], "b[c]": "3", "q": "hello world"})
    );
    assert_eq!(body["contentType"], "application/json; charset=utf-8");
    assert_eq!(body["custom"], "abc");
}

#[tokio::test]
async fn non_strict_json_accepts_any_value() {
    let r = invoke(contract().await, Req::post("/echo", "application/json", "42")).await;
    assert_eq!(r.json()["data"], json!(42));
    let r = invoke(contract().await, Req::post("/echo", "application/json", "\"s\"")).await;
    assert_eq!(r.json()["data"], json!("s"));
}

#[tokio::test]
async fn invalid_json_is_a_400() {
    let r = invoke(contract().await, Req::post("/echo", "application/json", "{nope")).await;
    assert_eq!(r.status, 400);
    assert!(r.text().contains("not valid JSON"), "{}", r.text());
}

#[tokio::test]
async fn text_bodies_are_strings() {
    let r = invoke(contract().await, Req::post("/echo", "text/plain", "héllo")).await;
    let body = r.json();
    assert_eq!(body["type"], "string");
    assert_eq!(body["data"], "héllo");
}

#[tokio::test]
async fn urlencoded_bodies_are_objects() {
    let r = invoke(
        contract().await,
        Req::post(
            "/echo",
            "application/x-www-form-urlencoded",
            "name=Ada+L&tags[]=a&tags[]=b",
        ),
    )
    .await;
    assert_eq!(r.json()["data"], json!({"name": "Ada L", "tags": ["a", "b"]}));
}

#[tokio::test]
async fn other_bodies_are_raw_bytes() {
    let r = invoke(
        contract().await,
        Req::post("/echo", "application/octet-stream", vec![0u8, 255, 7]),
    )
    .await;
    let body = r.json();
    assert_eq!(body["type"], "bytes");
    assert_eq!(body["data"], json!([0, 255, 7]));
}

#[tokio::test]
async fn no_body_means_undefined_data() {
    let r = invoke(contract().await, Req::get("/echo")).await;
    assert_eq!(r.json()["type"], "undefined");
}

#[tokio::test]
async fn context_and_env_reach_the_handler() {
    let r = invoke(
        contract().await,
        Req::get("/context").env("GREETING", "hi").env("FUNC_NAME", "test-fn"),
    )
    .await;
    assert_eq!(
        r.json(),
        json!({
            "context": {"function-name": "test-fn", "runtime": "nodejs22", "namespace": "test-ns", "timeout": 10, "body-size-limit": 1},
            "greeting": "hi",
            "funcName": "test-fn",
        })
    );
}

#[tokio::test]
async fn a_string_result_is_the_body_as_is() {
    let r = invoke(contract().await, Req::get("/string")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text(), "plain text");
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn undefined_is_an_empty_200() {
    let r = invoke(contract().await, Req::get("/undefined")).await;
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
}

#[tokio::test]
async fn promises_and_timers_are_awaited() {
    let r = invoke(contract().await, Req::get("/promise")).await;
    assert_eq!(r.json(), json!({"late": true}));
    let r = invoke(contract().await, Req::get("/timers")).await;
    assert_eq!(r.json(), json!(["a", "b"]), "timers fire in deadline order");
}

#[tokio::test]
async fn response_helpers_set_status_headers_and_type() {
    let r = invoke(contract().await, Req::get("/helpers")).await;
    assert_eq!(r.status, 201);
    assert_eq!(r.header("x-custom"), Some("yes"));
    // Express's res.type adds the charset to a text type.
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(r.text(), "created");
}

#[tokio::test]
async fn the_express_response_object_works() {
    let r = invoke(contract().await, Req::get("/express")).await;
    assert_eq!(r.status, 202);
    assert_eq!(r.header("x-express"), Some("1"));
    assert_eq!(r.json(), json!({"via": "express"}));
}

#[tokio::test]
async fn send_response_wins_over_the_return_value() {
    let r = invoke(contract().await, Req::get("/send-response")).await;
    assert_eq!(r.status, 203);
    assert_eq!(r.header("x-sent"), Some("1"));
    assert_eq!(r.json(), json!({"sent": true}));
    let r = invoke(contract().await, Req::get("/send-status")).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.text(), "Not Found");
}

#[tokio::test]
async fn a_thrown_string_is_a_500_with_that_text() {
    let r = invoke(contract().await, Req::get("/throw-string")).await;
    assert_eq!(r.status, 500);
    assert_eq!(r.text(), "bad input, try again");
}

#[tokio::test]
async fn a_thrown_error_is_a_500_without_its_detail() {
    for path in ["/throw-error", "/reject"] {
        let r = invoke(contract().await, Req::get(path)).await;
        assert_eq!(r.status, 500, "{path}");
        assert_eq!(r.text(), "Internal server error", "{path}");
    }
    let r = invoke(contract().await, Req::get("/throw-error")).await;
    assert!(
        r.logs.contains("secret internal detail"),
        "the error is logged: {}",
        r.logs
    );
}

#[tokio::test]
async fn structured_cloudevents_fill_the_event() {
    let ce = json!({
        "specversion": "1.0", "type": "order.created", "source": "/shop", "id": "A-1",
        "time": "2026-11-21T10:00:00Z", "eventtypeversion": "v1", "datacontenttype": "application/json",
        "data": {"order": 7},
    });
    let r = invoke(
        contract().await,
        Req::post("/cloudevent", "application/cloudevents+json", ce.to_string()),
    )
    .await;
    assert_eq!(
        r.json(),
        json!({
            "type": "order.created", "source": "/shop", "id": "A-1", "specversion": "1.0",
            "eventtypeversion": "v1", "time": "2026-11-21T10:00:00.000Z", "datacontenttype": "application/json",
            "data": {"order": 7},
        })
    );
}

#[tokio::test]
async fn binary_cloudevents_fill_the_event_from_headers() {
    let r = invoke(
        contract().await,
        Req::post("/cloudevent", "application/json", r#"{"order":8}"#)
            .header("ce-type", "order.paid")
            .header("ce-source", "/billing")
            .header("ce-specversion", "1.0")
            .header("ce-id", "B-2")
            .header("ce-time", "2026-11-21T11:00:00Z")
            .header("ce-eventtypeversion", "v2"),
    )
    .await;
    assert_eq!(
        r.json(),
        json!({
            "type": "order.paid", "source": "/billing", "id": "B-2", "specversion": "1.0",
            "eventtypeversion": "v2", "time": "2026-11-21T11:00:00.000Z", "datacontenttype": "application/json",
            "data": {"order": 8},
        })
    );
}

#[tokio::test]
async fn console_output_goes_to_stderr_not_the_response() {
    let r = invoke(contract().await, Req::get("/log")).await;
    assert_eq!(r.text(), "logged");
    assert!(r.logs.contains("hello from the Function"), "{}", r.logs);
}

#[tokio::test]
async fn esm_handlers_work() {
    let module = build(
        "export async function main(event, context) { return { esm: true, name: context['function-name'], data: event.data }; }",
        Some(r#"{"name": "esm-fn", "type": "module"}"#),
    )
    .await;
    let r = invoke(&module, Req::post("/", "application/json", r#"{"x":1}"#)).await;
    assert_eq!(r.json(), json!({"esm": true, "name": "test-fn", "data": {"x": 1}}));
}

#[tokio::test]
async fn commonjs_arrow_and_method_mains_work() {
    // Kyma's own runtime fails to load an arrow-function main; Shoal must not.
    let arrow = build("module.exports = { main: (event) => 'arrow:' + event.data };", None).await;
    let r = invoke(&arrow, Req::post("/", "text/plain", "ok")).await;
    assert_eq!(r.text(), "arrow:ok");
    let method = build("module.exports = { main(event) { return { method: true }; } };", None).await;
    assert_eq!(invoke(&method, Req::get("/")).await.json(), json!({"method": true}));
}

#[tokio::test]
async fn a_handler_that_throws_while_loading_answers_not_loaded() {
    // Load failures that depend on the environment pass the build probe only
    // if they do not throw there; this one throws only when a variable is set.
    let module = build(
        "if (process.env.BREAK) { throw new Error('boom at load'); }\nmodule.exports = { main: () => 'fine' };",
        None,
    )
    .await;
    assert_eq!(invoke(&module, Req::get("/")).await.text(), "fine");
    let r = invoke(&module, Req::get("/").env("BREAK", "1")).await;
    assert_eq!(r.status, 500);
    assert_eq!(r.text(), "User function not loaded");
    assert!(r.logs.contains("boom at load"), "{}", r.logs);
}

//! `shoal smoke-test`: what `helm test` runs in the cluster. Applies a hello
//! Function, waits until it is Running, calls it through its Service and
//! deletes it.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bytes::Bytes;
use clap::Args;
use http_body_util::{BodyExt, Empty};
use kube::api::{Api, DeleteParams, PostParams};
use shoal_api::Function;

#[derive(Args)]
pub struct SmokeArgs {
    /// Namespace to create the test Function in.
    #[arg(long, env = "POD_NAMESPACE", default_value = "default")]
    namespace: String,
    /// Seconds to wait for Running and for the answer.
    #[arg(long, default_value_t = 300)]
    timeout_secs: u64,
}

const NAME: &str = "shoal-smoke-test";
const EXPECTED: &str = "Hello from the Shoal smoke test";

pub async fn run(args: SmokeArgs) -> anyhow::Result<()> {
    let client = kube::Client::try_default()
        .await
        .context("connecting to the Kubernetes API")?;
    let api: Api<Function> = Api::namespaced(client, &args.namespace);
    let _ = api.delete(NAME, &DeleteParams::default()).await;
    let deadline = Instant::now() + Duration::from_secs(args.timeout_secs);
    while api.get_opt(NAME).await?.is_some() {
        if Instant::now() > deadline {
            bail!("an old {NAME} Function is not going away");
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }

    let function: Function = serde_json::from_value(serde_json::json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2",
        "kind": "Function",
        "metadata": {"name": NAME, "namespace": args.namespace},
        "spec": {"source": {"inline": {"source": format!("module.exports = {{ main: () => '{EXPECTED}' }};")}}}
    }))?;
    api.create(&PostParams::default(), &function)
        .await
        .context("creating the test Function (are the webhooks up?)")?;
    println!("created Function {}/{NAME}", args.namespace);

    let outcome = wait_and_call(&api, &args, deadline).await;
    let _ = api.delete(NAME, &DeleteParams::default()).await;
    let body = outcome?;
    println!("{NAME} answered {body:?} through its Service: OK");
    Ok(())
}

async fn wait_and_call(api: &Api<Function>, args: &SmokeArgs, deadline: Instant) -> anyhow::Result<String> {
    loop {
        let function = api.get(NAME).await?;
        if shoal_controller::reconcile::is_function_ready(&function) {
            break;
        }
        let conditions = function.status.map(|s| s.conditions).unwrap_or_default();
        if let Some(failed) = conditions.iter().find(|c| c.status == "False" && c.type_ != "Running") {
            bail!(
                "{NAME}: {} is False ({}): {}",
                failed.type_,
                failed.reason.as_deref().unwrap_or(""),
                failed.message.as_deref().unwrap_or("")
            );
        }
        if Instant::now() > deadline {
            bail!("{NAME} not Running in time: {conditions:?}");
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    println!("{NAME} is Running");
    let host = format!("{NAME}.{}.svc.cluster.local", args.namespace);
    let mut last = String::new();
    while Instant::now() < deadline {
        match get(&host).await {
            Ok((200, body)) if body == EXPECTED => return Ok(body),
            Ok((status, body)) => last = format!("HTTP {status}: {body}"),
            Err(e) => last = format!("{e:#}"),
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    bail!("http://{host}/ never answered {EXPECTED:?}; last: {last}")
}

async fn get(host: &str) -> anyhow::Result<(u16, String)> {
    let stream = tokio::time::timeout(Duration::from_secs(5), tokio::net::TcpStream::connect((host, 80)))
        .await
        .context("connect timed out")??;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let request = http::Request::get("/")
        .header("host", host)
        .body(Empty::<Bytes>::new())?;
    let response = tokio::time::timeout(Duration::from_secs(10), sender.send_request(request))
        .await
        .context("request timed out")??;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}

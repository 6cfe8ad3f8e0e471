//! The client side of the official MCP conformance suite: one program that
//! `conformance client --command ... --requirements <set>` starts once per
//! scenario, with the server's URL as its last argument, the scenario's name
//! in `MCP_CONFORMANCE_SCENARIO`, the protocol version in
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` and the scenario's data, when it has
//! some, in `MCP_CONFORMANCE_CONTEXT` (JSON). Each scenario is a few lines of
//! `codeagent::client`: what a client does on its own initiative there.
//!
//! ```sh
//! cargo build --example conformance_client
//! bash tests/conformance/run.sh     # runs both requirement sets, server and client side
//! ```

use std::process::ExitCode;

use codeagent::ProtocolVersion;
use codeagent::client::{
    Assertion, Client, ClientError, ClientKey, Credential, ElicitAnswer, ElicitationRequest, Handlers,
    IdentityProvider, OAuth, Protocol, Root,
};
use serde_json::{Map, Value, json};

#[tokio::main]
async fn main() -> ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: conformance_client URL (with MCP_CONFORMANCE_SCENARIO set)");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let version = match std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION") {
        Ok(version) => match version.parse::<ProtocolVersion>() {
            Ok(version) => version,
            Err(error) => {
                eprintln!("MCP_CONFORMANCE_PROTOCOL_VERSION: {error}");
                return ExitCode::from(2);
            }
        },
        Err(_) => ProtocolVersion::LATEST_LEGACY,
    };
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|context| serde_json::from_str(&context).ok())
        .unwrap_or(Value::Null);
    match run(&scenario, &url, version, &context).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{scenario}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A client of the scenario's server in `version`, answering with `handlers`.
async fn connect(url: &str, version: ProtocolVersion, handlers: Handlers) -> Result<Client, ClientError> {
    Client::builder()
        .client_info("codeagent-conformance-client", env!("CARGO_PKG_VERSION"))
        .protocol(Protocol::Only(version))
        .handlers(handlers)
        .http(url)
        .await
}

/// The person at this client accepts every form with its defaults, and
/// ticks every box that has none.
fn accepting() -> Handlers {
    Handlers::new().on_elicitation(|question: ElicitationRequest| async move {
        let mut content = question.defaults();
        let properties =
            question.requested_schema().and_then(|schema| schema.get("properties")).and_then(Value::as_object);
        for (name, property) in properties.into_iter().flatten() {
            if property["type"] == "boolean" && !content.contains_key(name) {
                content.insert(name.clone(), Value::Bool(true));
            }
        }
        ElicitAnswer::Accept(content)
    })
}

/// Every capability declared: roots (none), sampling (refused), elicitation (accepted).
fn everything() -> Handlers {
    accepting().with_roots(Vec::<Root>::new()).on_sampling(|_| async { Err("this client has no model".to_owned()) })
}

/// Connects with `oauth`, lists the tools and calls the suite's test tool.
async fn authorized(url: &str, version: ProtocolVersion, oauth: OAuth) -> Result<(), ClientError> {
    let client = Client::builder().protocol(Protocol::Only(version)).oauth(oauth).http(url).await?;
    client.list_tools().await?;
    client.call("test-tool", json!({})).await?;
    Ok(())
}

/// The text of the context's `name`, which the scenario gives.
fn text(context: &Value, name: &str) -> Result<String, ClientError> {
    context[name]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| ClientError::Invalid(format!("the scenario's context has no `{name}`")))
}

/// Calls `name` with `arguments`, reporting a failure without stopping.
async fn call(client: &Client, name: &str, arguments: Value) {
    match client.call(name, arguments).await {
        Ok(output) => eprintln!("{name}: {}", output.text()),
        Err(error) => eprintln!("{name}: {error}"),
    }
}

async fn run(scenario: &str, url: &str, version: ProtocolVersion, context: &Value) -> Result<(), ClientError> {
    match scenario {
        "initialize" => {
            connect(url, version, Handlers::new()).await?;
        }
        "tools_call" => {
            let client = connect(url, version, Handlers::new()).await?;
            client.list_tools().await?;
            client.call("add_numbers", json!({"a": 2, "b": 3})).await?;
        }
        "elicitation-sep1034-client-defaults" => {
            let client = connect(url, version, accepting()).await?;
            client.list_tools().await?;
            client.call("test_client_elicitation_defaults", json!({})).await?;
        }
        "sse-retry" => {
            let client = connect(url, version, Handlers::new()).await?;
            client.list_tools().await?;
            client.call("test_reconnection", json!({})).await?;
        }
        "request-metadata" => {
            // The first request is refused as an unsupported version; the client answers with one.
            let client = connect(url, version, everything()).await?;
            client.list_tools().await?;
        }
        "sep-2322-client-request-state" => {
            let client = connect(url, version, accepting()).await?;
            for tool in
                ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"]
            {
                call(&client, tool, json!({})).await;
            }
        }
        "http-standard-headers" => {
            let client = connect(url, version, Handlers::new()).await?;
            client.list_tools().await?;
            call(&client, "my-hyphenated-tool", json!({})).await;
            client.list_resources().await?;
            client.read_resource("file:///path/to/file%20name.txt").await?;
            client.list_prompts().await?;
            client.get_prompt("test_prompt", Map::new()).await?;
        }
        "http-custom-headers" => {
            let client = connect(url, version, Handlers::new()).await?;
            client.list_tools().await?;
            for tool_call in context["toolCalls"].as_array().into_iter().flatten() {
                call(&client, tool_call["name"].as_str().unwrap_or_default(), tool_call["arguments"].clone()).await;
            }
        }
        "http-invalid-tool-headers" => {
            // The client leaves out every tool whose x-mcp-header annotations are invalid.
            let client = connect(url, version, Handlers::new()).await?;
            for tool in client.list_tools().await? {
                call(&client, &tool.name, json!({"region": "us-west1"})).await;
            }
        }
        "json-schema-ref-no-deref" => {
            // Listing is all: a `$ref` to a network URI is never fetched.
            let client = connect(url, version, Handlers::new()).await?;
            client.list_tools().await?;
        }
        "json-schema-2020-12-preservation" => {
            let client = connect(url, version, Handlers::new()).await?;
            let tools = client.list_tools().await?;
            let schema =
                tools.iter().find(|tool| tool.name == "json_schema_2020_12_tool").map(|tool| tool.input_schema.clone());
            client.call("json_schema_echo", json!({ "schema": schema })).await?;
        }
        "auth/client-credentials-basic" | "auth/client-credentials-jwt" => {
            // No person: the client's own credentials, for the issuer its server names.
            let issuer = OAuth::issuer_of(url).await?;
            let credential = match (context["client_secret"].as_str(), context["private_key_pem"].as_str()) {
                (Some(secret), _) => Credential::secret(secret),
                (None, Some(pem)) => Credential::private_key(
                    ClientKey::from_pem(pem).map_err(|error| ClientError::Invalid(error.to_string()))?,
                ),
                (None, None) => return Err(ClientError::Invalid("the context has no client credentials".into())),
            };
            let oauth = OAuth::client_credentials(issuer, text(context, "client_id")?, credential);
            authorized(url, version, oauth).await?;
        }
        "auth/enterprise-managed-authorization" => {
            // The person signed in at the identity provider already: its ID token is exchanged for access.
            let issuer = OAuth::issuer_of(url).await?;
            let provider = IdentityProvider::new(
                text(context, "idp_token_endpoint")?,
                text(context, "idp_client_id")?,
                Assertion::fixed(text(context, "idp_id_token")?),
            );
            let credential = Credential::secret(text(context, "client_secret")?);
            let oauth = OAuth::enterprise_managed(issuer, text(context, "client_id")?, credential, provider);
            authorized(url, version, oauth).await?;
        }
        "auth/wif-jwt-bearer" => {
            // The platform gave the workload a JWT: presented as it is.
            let issuer = OAuth::issuer_of(url).await?;
            let assertion = Assertion::fixed(text(context, "valid_jwt")?);
            let oauth = OAuth::workload_identity(issuer, text(context, "client_id")?, assertion);
            authorized(url, version, oauth).await?;
        }
        authorization if authorization.starts_with("auth/") => {
            // The suite's authorization server approves at once; its
            // pre-registration scenario gives the credentials.
            let mut oauth = OAuth::unattended("http://localhost:3000/callback")
                .client_name("codeagent-conformance-client")
                .metadata_document("https://conformance-test.local/client-metadata.json");
            if let Some(client_id) = context["client_id"].as_str() {
                // Credentials are used with one issuer only: the suite names none,
                // so take the one its server names (trusting the test server).
                let issuer = OAuth::issuer_of(url).await?;
                oauth = oauth.registered(issuer, client_id, context["client_secret"].as_str().map(str::to_owned));
            }
            if authorization.starts_with("auth/dpop") {
                // Tokens bound to this client's key, proven on every request.
                oauth = oauth.dpop();
            }
            authorized(url, version, oauth).await?;
        }
        other => return Err(ClientError::Invalid(format!("no such scenario: `{other}`"))),
    }
    Ok(())
}

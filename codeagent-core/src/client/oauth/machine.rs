//! Authorization without a person: the client credentials grant (RFC 6749
//! §4.4, the MCP OAuth client credentials extension) with a secret or a
//! private key (RFC 7523 §2.2), enterprise-managed authorization (an ID
//! token exchanged at the identity provider for an identity assertion
//! grant, RFC 8693, presented with the JWT bearer grant, RFC 7523 §2.1),
//! and workload identity federation (a workload's JWT presented with the
//! JWT bearer grant).

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::json;

use super::discovery::{Discovered, ServerMetadata};
use super::keys::{ClientKey, now};
use super::token::{Dpop, Form, Token, post_token, token_of};
use crate::log_text::escaped;
use crate::net::HttpClient;

/// The grant type of RFC 7523's JWT bearer grant.
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// The grant type of RFC 8693's token exchange.
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// The token type of an identity assertion JWT authorization grant.
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";
/// The token type of an OAuth access token (RFC 8693 §3).
const ACCESS_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:access_token";
/// The token type of an OpenID Connect ID token.
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";
/// The client assertion type of `private_key_jwt`.
const CLIENT_ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/// How long a client assertion is valid, in seconds.
const ASSERTION_LIFETIME: u64 = 60;
/// The errors after which a workload's JWT is not presented again.
const FINAL_ERRORS: [&str; 3] = ["invalid_grant", "invalid_scope", "unauthorized_client"];

/// How a confidential client proves who it is at a token endpoint: a
/// client secret (`client_secret_basic` or `client_secret_post`) or a
/// private key (`private_key_jwt`, RFC 7523 §2.2: an assertion signed for
/// each request, `iss` and `sub` the client id, `aud` the authorization
/// server's issuer, a fresh `jti`, expiring a minute after it is made). Its
/// `Debug` never shows the secret or the key.
#[derive(Clone)]
pub struct Credential(Kind);

#[derive(Clone)]
enum Kind {
    Secret { secret: String, method: SecretMethod },
    Key(ClientKey),
}

/// Where a secret goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SecretMethod {
    /// HTTP Basic, unless the server lists only `client_secret_post`.
    Either,
    Basic,
    Post,
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Kind::Secret { method, .. } => {
                f.debug_struct("Credential").field("secret", &"<redacted>").field("method", method).finish()
            }
            Kind::Key(key) => f.debug_struct("Credential").field("private_key", key).finish(),
        }
    }
}

impl Credential {
    /// A client secret, sent with HTTP Basic (`client_secret_basic`) unless
    /// the authorization server's metadata lists only `client_secret_post`.
    pub fn secret(secret: impl Into<String>) -> Credential {
        Credential(Kind::Secret { secret: secret.into(), method: SecretMethod::Either })
    }

    /// A client secret, always sent with HTTP Basic (`client_secret_basic`).
    pub fn secret_basic(secret: impl Into<String>) -> Credential {
        Credential(Kind::Secret { secret: secret.into(), method: SecretMethod::Basic })
    }

    /// A client secret, always sent in the form (`client_secret_post`).
    pub fn secret_post(secret: impl Into<String>) -> Credential {
        Credential(Kind::Secret { secret: secret.into(), method: SecretMethod::Post })
    }

    /// A private key (`private_key_jwt`): each token request carries a
    /// client assertion signed with it.
    pub fn private_key(key: ClientKey) -> Credential {
        Credential(Kind::Key(key))
    }
}

/// The client's authentication of one token request to `token_endpoint`
/// of the authorization server `issuer` (whose metadata is `server`, when
/// known), added to `fields`.
fn authenticate(
    client_id: &str,
    credential: Option<&Credential>,
    issuer: &str,
    server: Option<&ServerMetadata>,
    mut fields: Vec<(&'static str, String)>,
) -> Result<Form, String> {
    let offered = |method: &str| {
        server
            .and_then(|server| server.token_endpoint_auth_methods_supported.as_ref())
            .is_none_or(|methods| methods.iter().any(|m| m == method))
    };
    let mut basic = None;
    match credential.map(|credential| &credential.0) {
        None => fields.push(("client_id", client_id.to_owned())),
        Some(Kind::Secret { secret, method }) => {
            let post = match method {
                SecretMethod::Post => true,
                SecretMethod::Basic => false,
                SecretMethod::Either => !offered("client_secret_basic") && offered("client_secret_post"),
            };
            if post {
                fields.push(("client_id", client_id.to_owned()));
                fields.push(("client_secret", secret.clone()));
            } else {
                basic = Some((client_id.to_owned(), secret.clone()));
            }
        }
        Some(Kind::Key(key)) => {
            let algorithms = server.and_then(|server| server.token_endpoint_auth_signing_alg_values_supported.as_ref());
            if let Some(algorithms) = algorithms.filter(|algorithms| !algorithms.iter().any(|a| a == key.algorithm())) {
                return Err(format!(
                    "the authorization server `{}` takes client assertions signed with {}, not {} (this client's key)",
                    escaped(issuer),
                    algorithms.join(", "),
                    key.algorithm()
                ));
            }
            let issued = now();
            let claims = json!({
                "iss": client_id,
                "sub": client_id,
                "aud": issuer,
                "jti": crate::random::hex::<16>().map_err(|error| error.to_string())?,
                "iat": issued,
                "exp": issued + ASSERTION_LIFETIME,
            });
            fields.push(("client_id", client_id.to_owned()));
            fields.push(("client_assertion_type", CLIENT_ASSERTION_TYPE.to_owned()));
            fields.push(("client_assertion", key.sign("JWT", None, &claims)?));
        }
    }
    Ok(Form { fields, basic })
}

/// The asynchronous source of an assertion.
type Fetch = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<String, String>> + Send>> + Send + Sync>;

/// A JWT the client presents and does not make: a workload's identity
/// token (workload identity federation) or a person's ID token
/// (enterprise-managed authorization). Fixed, read from a file at each use
/// (where a platform writes a fresh one: Kubernetes projected service
/// account tokens, GitHub Actions, SPIFFE), or fetched by a callback. Its
/// `Debug` never shows the token.
#[derive(Clone)]
pub struct Assertion(Source);

#[derive(Clone)]
enum Source {
    Fixed(String),
    File(PathBuf),
    Callback(Fetch),
}

impl std::fmt::Debug for Assertion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Source::Fixed(_) => f.write_str("Assertion::fixed(<redacted>)"),
            Source::File(path) => write!(f, "Assertion::file({})", path.display()),
            Source::Callback(_) => f.write_str("Assertion::from_fn(..)"),
        }
    }
}

impl Assertion {
    /// This JWT, for as long as the client runs.
    pub fn fixed(jwt: impl Into<String>) -> Assertion {
        Assertion(Source::Fixed(jwt.into()))
    }

    /// The JWT in the file at `path`, read again at each use (surrounding
    /// white space left out).
    pub fn file(path: impl Into<PathBuf>) -> Assertion {
        Assertion(Source::File(path.into()))
    }

    /// The JWT `fetch` returns, called at each use (or why there is none).
    pub fn from_fn<F, Fut>(fetch: F) -> Assertion
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, String>> + Send + 'static,
    {
        Assertion(Source::Callback(Arc::new(move || Box::pin(fetch()))))
    }

    /// The JWT, now; `what` names it in errors.
    async fn get(&self, what: &str) -> Result<String, String> {
        let jwt = match &self.0 {
            Source::Fixed(jwt) => jwt.clone(),
            Source::File(path) => tokio::fs::read_to_string(path)
                .await
                .map_err(|error| format!("reading {what} from {}: {error}", path.display()))?,
            Source::Callback(fetch) => fetch().await.map_err(|error| format!("getting {what}: {error}"))?,
        };
        let jwt = jwt.trim();
        if jwt.is_empty() {
            return Err(format!("{what} is empty"));
        }
        Ok(jwt.to_owned())
    }
}

/// The enterprise identity provider of enterprise-managed authorization:
/// its token endpoint, where the client exchanges the person's ID token
/// for an identity assertion grant for one MCP server (RFC 8693), and the
/// client's identity there.
#[derive(Clone, Debug)]
pub struct IdentityProvider {
    token_endpoint: String,
    client_id: String,
    credential: Option<Credential>,
    id_token: Assertion,
}

impl IdentityProvider {
    /// The identity provider whose token endpoint is `token_endpoint`,
    /// where this client is `client_id` (a public client unless
    /// [`credential`](IdentityProvider::credential) says otherwise), and
    /// where the person signed in with `id_token` (an OpenID Connect ID
    /// token whose audience is `client_id`).
    pub fn new(token_endpoint: impl Into<String>, client_id: impl Into<String>, id_token: Assertion) -> Self {
        IdentityProvider {
            token_endpoint: token_endpoint.into(),
            client_id: client_id.into(),
            credential: None,
            id_token,
        }
    }

    /// How this client authenticates at the identity provider.
    #[must_use]
    pub fn credential(mut self, credential: Credential) -> Self {
        self.credential = Some(credential);
        self
    }
}

/// A grant without a person, bound to one authorization server.
#[derive(Clone, Debug)]
pub(crate) struct Machine {
    /// The issuer the credentials are for, exactly as its metadata reads.
    pub(crate) issuer: String,
    pub(crate) client_id: String,
    pub(crate) grant: Grant,
}

#[derive(Clone, Debug)]
pub(crate) enum Grant {
    /// The client credentials grant.
    ClientCredentials(Credential),
    /// An ID token exchanged at the identity provider, then the JWT bearer grant.
    Enterprise { credential: Credential, provider: IdentityProvider },
    /// A workload's JWT with the JWT bearer grant, as a public client.
    Workload(Assertion),
}

impl Machine {
    /// What the flow is called in errors.
    fn name(&self) -> &'static str {
        match self.grant {
            Grant::ClientCredentials(_) => "the client credentials grant",
            Grant::Enterprise { .. } => "enterprise-managed authorization",
            Grant::Workload(_) => "workload identity federation",
        }
    }

    /// A token for `scopes` at the resource `discovered` names. A
    /// workload's JWT refused for good (`invalid_grant`, `invalid_scope`,
    /// `unauthorized_client`) is added to `refused` (a hash of it) and not
    /// presented again.
    pub(crate) async fn token(
        &self,
        client: &HttpClient,
        discovered: &Discovered,
        scopes: &[String],
        dpop: Option<&Dpop>,
        refused: &mut Vec<[u8; 32]>,
    ) -> Result<Token, String> {
        let server = &discovered.server;
        self.same_issuer(server, self.name())?;
        let scope = scopes.join(" ");
        let mut fields = vec![("resource", discovered.resource.clone())];
        if !scope.is_empty() {
            fields.push(("scope", scope.clone()));
        }
        let endpoint = &server.token_endpoint;
        match &self.grant {
            Grant::ClientCredentials(credential) => {
                fields.insert(0, ("grant_type", "client_credentials".to_owned()));
                let make =
                    || authenticate(&self.client_id, Some(credential), &self.issuer, Some(server), fields.clone());
                let answer = post_token(client, endpoint, dpop, make).await?;
                token_of(&answer, None, dpop.is_some())
            }
            Grant::Enterprise { credential, provider } => {
                let grant = self.identity_assertion_grant(provider, discovered, &scope).await?;
                fields.insert(0, ("grant_type", JWT_BEARER.to_owned()));
                fields.insert(1, ("assertion", grant));
                let make =
                    || authenticate(&self.client_id, Some(credential), &self.issuer, Some(server), fields.clone());
                let answer = post_token(client, endpoint, dpop, make).await?;
                token_of(&answer, None, dpop.is_some()).map_err(|error| {
                    format!("presenting the identity assertion grant to `{}`: {error}", escaped(&self.issuer))
                })
            }
            Grant::Workload(assertion) => {
                let jwt = assertion.get("the workload's JWT").await?;
                let hash = hmac_sha256::Hash::hash(jwt.as_bytes());
                if refused.contains(&hash) {
                    return Err(format!(
                        "`{}` refused this workload's JWT before; it is not presented again (give a new one)",
                        escaped(&self.issuer)
                    ));
                }
                fields.insert(0, ("grant_type", JWT_BEARER.to_owned()));
                fields.insert(1, ("assertion", jwt));
                let make = || authenticate(&self.client_id, None, &self.issuer, Some(server), fields.clone());
                let answer = post_token(client, endpoint, dpop, make).await?;
                let error = answer.json["error"].as_str().filter(|_| !answer.status.is_success());
                if error.is_some_and(|error| FINAL_ERRORS.contains(&error)) {
                    refused.push(hash);
                    return Err(format!(
                        "`{}` refused the workload's JWT ({}): not retried, and no other grant is tried",
                        escaped(&self.issuer),
                        escaped(&answer.oauth_error())
                    ));
                }
                token_of(&answer, None, dpop.is_some())
            }
        }
    }

    /// Refuses an authorization server other than the one the credentials
    /// are for (`what`: the flow, in the error).
    fn same_issuer(&self, server: &ServerMetadata, what: &str) -> Result<(), String> {
        if server.issuer == self.issuer {
            return Ok(());
        }
        Err(format!(
            "the server names the authorization server `{}`, but this client's credentials for {what} are for \
             `{}` (credentials are used only with the issuer they are for): refused",
            escaped(&server.issuer),
            escaped(&self.issuer)
        ))
    }

    /// RFC 8693 token exchange: `subject_token` (an access token a resource
    /// server of this client's application verified: its caller's) exchanged
    /// at the authorization server `discovered` names for an access token of
    /// the resource it names (`resource` and `audience`), this client
    /// authenticating with its own credentials. The token, and how many
    /// seconds it lives when the answer says (`expires_in`).
    pub(crate) async fn exchange(
        &self,
        client: &HttpClient,
        discovered: &Discovered,
        subject_token: &str,
        scopes: &[String],
        dpop: Option<&Dpop>,
    ) -> Result<(Token, Option<u64>), String> {
        let Grant::ClientCredentials(credential) = &self.grant else {
            return Err(format!(
                "token exchange needs the client's own credentials (OAuth::client_credentials), not {}",
                self.name()
            ));
        };
        let server = &discovered.server;
        self.same_issuer(server, "token exchange")?;
        let resource = &discovered.resource;
        let mut fields = vec![
            ("grant_type", TOKEN_EXCHANGE.to_owned()),
            ("subject_token", subject_token.to_owned()),
            ("subject_token_type", ACCESS_TOKEN_TYPE.to_owned()),
            ("requested_token_type", ACCESS_TOKEN_TYPE.to_owned()),
            ("resource", resource.clone()),
            ("audience", resource.clone()),
        ];
        if !scopes.is_empty() {
            fields.push(("scope", scopes.join(" ")));
        }
        let make = || authenticate(&self.client_id, Some(credential), &self.issuer, Some(server), fields.clone());
        let answer = post_token(client, &server.token_endpoint, dpop, make).await?;
        if !answer.status.is_success() {
            return Err(format!(
                "`{}` refused to exchange the caller's token for a token of `{}` (as the client `{}`): {}",
                escaped(&self.issuer),
                escaped(resource),
                escaped(&self.client_id),
                escaped(&answer.oauth_error())
            ));
        }
        if let Some(kind) = answer.json["issued_token_type"].as_str().filter(|kind| *kind != ACCESS_TOKEN_TYPE) {
            return Err(format!(
                "`{}` exchanged the caller's token for a `{}`, not an access token (`{ACCESS_TOKEN_TYPE}`): refused",
                escaped(&self.issuer),
                escaped(kind)
            ));
        }
        let token = token_of(&answer, None, dpop.is_some())?;
        Ok((token, answer.json["expires_in"].as_u64()))
    }

    /// The identity assertion grant for the resource `discovered` names,
    /// from the identity provider `provider` (RFC 8693 token exchange).
    async fn identity_assertion_grant(
        &self,
        provider: &IdentityProvider,
        discovered: &Discovered,
        scope: &str,
    ) -> Result<String, String> {
        let id_token = provider.id_token.get("the ID token").await?;
        let mut fields = vec![
            ("grant_type", TOKEN_EXCHANGE.to_owned()),
            ("requested_token_type", ID_JAG.to_owned()),
            ("audience", self.issuer.clone()),
            ("resource", discovered.resource.clone()),
            ("subject_token", id_token),
            ("subject_token_type", ID_TOKEN.to_owned()),
        ];
        if !scope.is_empty() {
            fields.push(("scope", scope.to_owned()));
        }
        let endpoint = &provider.token_endpoint;
        let make = || authenticate(&provider.client_id, provider.credential.as_ref(), endpoint, None, fields.clone());
        // The identity provider is the application's own choice: reached wherever it is.
        let reaching = crate::net::http_client_reaching(std::time::Duration::from_secs(30), crate::net::Reach::Any);
        let answer = post_token(&reaching, endpoint, None, make).await?;
        if !answer.status.is_success() {
            return Err(format!(
                "the identity provider's token endpoint {} refused the token exchange: {}",
                escaped(endpoint),
                escaped(&answer.oauth_error())
            ));
        }
        if let Some(kind) = answer.json["issued_token_type"].as_str().filter(|kind| *kind != ID_JAG) {
            return Err(format!(
                "the identity provider issued a `{}`, not an identity assertion grant (`{ID_JAG}`)",
                escaped(kind)
            ));
        }
        answer.json["access_token"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| "the identity provider's token exchange answer has no access_token".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(methods: Option<&[&str]>) -> ServerMetadata {
        serde_json::from_value(json!({
            "issuer": "https://as.example",
            "token_endpoint": "https://as.example/token",
            "token_endpoint_auth_methods_supported": methods,
            "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
        }))
        .unwrap()
    }

    #[test]
    fn a_secret_goes_where_the_server_takes_it() {
        let secret = Credential::secret("s3cret");
        let form = authenticate("c", Some(&secret), "https://as.example", Some(&server(None)), vec![]).unwrap();
        assert_eq!(form.basic, Some(("c".into(), "s3cret".into())));
        let only_post = server(Some(&["client_secret_post"]));
        let form = authenticate("c", Some(&secret), "https://as.example", Some(&only_post), vec![]).unwrap();
        assert!(form.basic.is_none());
        assert!(form.fields.contains(&("client_secret", "s3cret".into())));
        let form = authenticate("c", Some(&Credential::secret_post("x")), "i", Some(&server(None)), vec![]).unwrap();
        assert!(form.basic.is_none() && form.fields.contains(&("client_id", "c".into())));
        assert!(!format!("{secret:?}").contains("s3cret"));
    }

    #[test]
    fn a_private_key_signs_a_fresh_short_assertion_for_the_issuer() {
        let key = ClientKey::from_pem(include_str!("testdata/ec-pkcs8.pem")).unwrap();
        let credential = Credential::private_key(key.clone());
        let server = server(Some(&["private_key_jwt"]));
        let assertion =
            |form: &Form| form.fields.iter().find(|(name, _)| *name == "client_assertion").unwrap().1.clone();
        let first = authenticate("c", Some(&credential), "https://as.example", Some(&server), vec![]).unwrap();
        let second = authenticate("c", Some(&credential), "https://as.example", Some(&server), vec![]).unwrap();
        assert!(first.fields.contains(&("client_assertion_type", CLIENT_ASSERTION_TYPE.into())));
        let claims = |jwt: String| -> serde_json::Value {
            use base64::Engine as _;
            let part = jwt.split('.').nth(1).unwrap().to_owned();
            serde_json::from_slice(&base64::prelude::BASE64_URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
        };
        let (one, two) = (claims(assertion(&first)), claims(assertion(&second)));
        assert_eq!(
            (one["iss"].as_str(), one["sub"].as_str(), one["aud"].as_str()),
            (Some("c"), Some("c"), Some("https://as.example"))
        );
        assert_ne!(one["jti"], two["jti"]);
        assert_eq!(one["exp"].as_u64().unwrap() - one["iat"].as_u64().unwrap(), ASSERTION_LIFETIME);
        // An RSA key where the server takes ES256 only: refused, naming both.
        let rsa = Credential::private_key(ClientKey::from_pem(include_str!("testdata/rsa-pkcs8.pem")).unwrap());
        let error = authenticate("c", Some(&rsa), "https://as.example", Some(&server), vec![]).err().unwrap();
        assert!(error.contains("ES256") && error.contains("RS256"), "{error}");
    }

    #[tokio::test]
    async fn assertions_come_from_a_file_or_a_callback() {
        let path = std::env::temp_dir().join(format!("codeagent-assertion-{}", std::process::id()));
        std::fs::write(&path, "  eyJ.a.b\n").unwrap();
        assert_eq!(Assertion::file(&path).get("it").await.unwrap(), "eyJ.a.b");
        std::fs::remove_file(&path).unwrap();
        let error = Assertion::file(&path).get("the workload's JWT").await.unwrap_err();
        assert!(error.contains("reading the workload's JWT from"), "{error}");
        let from_fn = Assertion::from_fn(|| async { Ok("eyJ.c.d".to_owned()) });
        assert_eq!(from_fn.get("it").await.unwrap(), "eyJ.c.d");
        assert!(!format!("{:?}", Assertion::fixed("eyJ.secret")).contains("secret"));
    }
}

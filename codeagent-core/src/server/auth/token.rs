//! An access token checked: a JWT against the issuer's keys (asymmetric
//! signatures only; `iss` exact, `aud` naming this resource, `exp` and `nbf`
//! with a leeway), or an opaque token by the issuer's RFC 7662 introspection.

use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use serde_json::{Map, Value};

use super::keys::Keys;
use crate::net::HttpClient;
use crate::oauth::fetch::post_form;

/// Who a valid token speaks for.
#[derive(Clone, Debug)]
pub(crate) struct Holder {
    /// `sub` (else `client_id`).
    pub(crate) subject: String,
    /// The scopes granted (`scope`, or `scp`).
    pub(crate) scopes: Vec<String>,
    /// Every claim.
    pub(crate) claims: Map<String, Value>,
}

impl Holder {
    /// The caller a tool sees: subject, scopes and every claim; `token`
    /// (verified) kept inside it for token exchange alone.
    pub(crate) fn into_caller(self, token: &str) -> crate::toolbox::Caller {
        let caller = crate::toolbox::Caller::new(self.subject).with_scopes(self.scopes).with_admitted_token(token);
        self.claims.into_iter().fold(caller, |caller, (name, value)| caller.with_claim(name, value))
    }

    /// The DPoP key the token is bound to (its `cnf.jkt`, RFC 9449 §6, from
    /// the JWT or the introspection answer), `None` for an unbound token; an
    /// error for a confirmation this server cannot check (so such a token is
    /// never taken for a bearer token).
    pub(crate) fn binding(&self) -> Result<Option<&str>, String> {
        let Some(cnf) = self.claims.get("cnf") else { return Ok(None) };
        let Value::Object(cnf) = cnf else {
            return Err("the token's confirmation (cnf) is not an object".to_owned());
        };
        match cnf.get("jkt") {
            Some(Value::String(jkt)) if !jkt.is_empty() => Ok(Some(jkt)),
            Some(_) => Err("the token's cnf.jkt is not a thumbprint (a non-empty string)".to_owned()),
            None if cnf.contains_key("x5t#S256") => Err(
                "the token is bound to a TLS client certificate (cnf x5t#S256, RFC 8705), which this server cannot check"
                    .to_owned(),
            ),
            None => Err("the token's confirmation (cnf) has no jkt, the only binding this server checks".to_owned()),
        }
    }

    fn of(claims: Map<String, Value>) -> Holder {
        let subject = ["sub", "client_id"]
            .iter()
            .find_map(|name| claims.get(*name).and_then(Value::as_str))
            .unwrap_or_default()
            .to_owned();
        let scopes = match claims.get("scope").or_else(|| claims.get("scp")) {
            Some(Value::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
            Some(Value::Array(scopes)) => scopes.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            _ => Vec::new(),
        };
        Holder { subject, scopes, claims }
    }
}

/// The algorithms a token may be signed with: asymmetric ones only, so a
/// public key can never serve as an HMAC secret.
const ASYMMETRIC: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Checks the JWT `token` of `issuer` for `resource`.
pub(crate) async fn verify_jwt(
    client: &HttpClient,
    keys: &Keys,
    token: &str,
    issuer: &str,
    resource: &str,
    (leeway, refetch_every): (Duration, Duration),
) -> Result<Holder, String> {
    // `alg: none` is no algorithm here: its header does not parse.
    let header = decode_header(token).map_err(|error| format!("the token is not a signed JWT: {error}"))?;
    if !ASYMMETRIC.contains(&header.alg) {
        return Err(format!("tokens signed with {:?} are refused: the issuer signs with a private key", header.alg));
    }
    let (_, key) = keys.key(client, header.kid.as_deref(), refetch_every).await?;
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[issuer]);
    validation.set_audience(&[resource]);
    validation.set_required_spec_claims(&["exp", "iss", "aud"]);
    validation.validate_nbf = true;
    validation.leeway = leeway.as_secs();
    let data = decode::<Map<String, Value>>(token, &key, &validation).map_err(|error| match error.kind() {
        ErrorKind::ExpiredSignature => "the token has expired".to_owned(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".to_owned(),
        ErrorKind::InvalidIssuer => format!("the token is not from `{issuer}`"),
        ErrorKind::InvalidAudience => format!("the token is not for `{resource}` (aud)"),
        ErrorKind::InvalidSignature => "the token's signature is not valid".to_owned(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        _ => format!("the token is not valid: {error}"),
    })?;
    Ok(Holder::of(data.claims))
}

/// Checks the opaque `token` at the issuer's introspection `endpoint`,
/// authenticating as `client_id` with `client_secret`.
pub(crate) async fn introspect(
    client: &HttpClient,
    endpoint: &str,
    (client_id, client_secret): (&str, &str),
    token: &str,
    issuer: &str,
    resource: &str,
) -> Result<Holder, String> {
    let fields = [("token", token), ("token_type_hint", "access_token")];
    let answer = post_form(client, endpoint, &fields, Some((client_id, client_secret))).await?;
    if !answer.status.is_success() {
        return Err(format!("the introspection endpoint refused: {}", answer.oauth_error()));
    }
    let Value::Object(claims) = answer.json else {
        return Err("the introspection endpoint's answer is not a JSON object".into());
    };
    if claims.get("active") != Some(&Value::Bool(true)) {
        return Err("the token is not active".into());
    }
    if let Some(named) = claims.get("iss").and_then(Value::as_str).filter(|named| *named != issuer) {
        return Err(format!("the token is from `{named}`, not `{issuer}`"));
    }
    let audience = match claims.get("aud") {
        None => true,
        Some(Value::String(audience)) => audience == resource,
        Some(Value::Array(audiences)) => audiences.iter().any(|audience| audience.as_str() == Some(resource)),
        Some(_) => false,
    };
    if !audience {
        return Err(format!("the token is not for `{resource}` (aud)"));
    }
    Ok(Holder::of(claims))
}

//! DPoP (RFC 9449) at the resource server: the policy ([`DpopPolicy`]), the
//! proof a request carries in its `DPoP` header checked (its form, key,
//! signature, method, URL and age), the nonces the server hands out and
//! takes back without keeping them, and the key a proof was made with
//! compared with the one the token is bound to (`cnf.jkt`).
//!
//! Everything in a proof is untrusted until its signature verifies, and
//! bounded before it is read: the header's size, each part's, the key's
//! members, the claims' lengths.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::prelude::BASE64_URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::{Map, Value};
use subtle::ConstantTimeEq;

use crate::server::store::{Store, StoreError};

/// How far a proof's `iat` may be from the server's clock, either way,
/// unless told otherwise.
pub const DEFAULT_PROOF_AGE: Duration = Duration::from_secs(60);
/// How long a nonce the server hands out is accepted, at least, unless told
/// otherwise (at most twice as long).
pub const DEFAULT_NONCE_LIFETIME: Duration = Duration::from_secs(300);

/// The largest `DPoP` header accepted, in bytes: a proof with a 4096-bit RSA
/// key is about 2.5 KB.
pub(crate) const MAX_PROOF: usize = 8 * 1024;
/// The longest `jti`, `htm`, `htu`, `ath` or `nonce` accepted, in bytes.
const MAX_CLAIM: usize = 2048;
/// The fewest bits of an RSA key a proof may use.
const MIN_RSA_BITS: usize = 2048;

/// The algorithms a proof may be signed with, by their JOSE names: asymmetric
/// only, advertised in the challenge's `algs` and the metadata's
/// `dpop_signing_alg_values_supported`.
pub(crate) const ALGORITHMS: [(&str, Algorithm); 5] = [
    ("ES256", Algorithm::ES256),
    ("ES384", Algorithm::ES384),
    ("EdDSA", Algorithm::EdDSA),
    ("RS256", Algorithm::RS256),
    ("PS256", Algorithm::PS256),
];

/// The names of [`ALGORITHMS`], space-separated.
pub(crate) fn algorithm_names() -> Vec<&'static str> {
    ALGORITHMS.iter().map(|(name, _)| *name).collect()
}

/// How a [`ResourceServer`](super::ResourceServer) treats DPoP (RFC 9449),
/// given to [`ResourceServer::with_dpop`](super::ResourceServer::with_dpop).
///
/// - [`DpopPolicy::allowed`]: DPoP-bound tokens are accepted with
///   `Authorization: DPoP` and a valid proof; unbound tokens still as
///   `Bearer`. A 401 carries both challenges.
/// - [`DpopPolicy::required`]: only DPoP; a `Bearer` token is refused, and
///   the metadata says `dpop_bound_access_tokens_required`.
///
/// Either way a DPoP-bound token (one with `cnf.jkt`) is refused as `Bearer`
/// (as it is without any policy), a proof's `jti` is refused the second time
/// (through the server's [`Store`], so across instances), and a proof's `iat`
/// may be [`DEFAULT_PROOF_AGE`] from the server's clock. With
/// [`with_nonces`](Self::with_nonces) the server also hands out nonces
/// (`DPoP-Nonce`, a `401` with `error="use_dpop_nonce"`) and requires them.
///
/// ```
/// use std::time::Duration;
/// use codeagent_core::server::auth::{DpopPolicy, ResourceServer};
///
/// let auth = ResourceServer::new("https://id.example.com", "https://tools.example.com/mcp")
///     .with_dpop(DpopPolicy::required().with_nonces().with_proof_age(Duration::from_secs(30)));
/// # let _ = auth;
/// ```
#[derive(Clone)]
pub struct DpopPolicy {
    pub(crate) required: bool,
    pub(crate) proof_age: Duration,
    pub(crate) nonces: Option<NoncePolicy>,
}

/// How nonces are made.
#[derive(Clone)]
pub(crate) struct NoncePolicy {
    pub(crate) lifetime: Duration,
    /// The key; `None` for the one kept in the store.
    pub(crate) secret: Option<Arc<[u8]>>,
}

impl std::fmt::Debug for DpopPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopPolicy")
            .field("required", &self.required)
            .field("proof_age", &self.proof_age)
            .field("nonce_lifetime", &self.nonces.as_ref().map(|nonces| nonces.lifetime))
            .field("nonce_secret_given", &self.nonces.as_ref().is_some_and(|nonces| nonces.secret.is_some()))
            .finish()
    }
}

impl DpopPolicy {
    /// DPoP-bound tokens with their proofs, and unbound tokens as `Bearer`.
    pub fn allowed() -> Self {
        DpopPolicy { required: false, proof_age: DEFAULT_PROOF_AGE, nonces: None }
    }

    /// DPoP-bound tokens with their proofs only: a `Bearer` token is refused.
    pub fn required() -> Self {
        DpopPolicy { required: true, ..DpopPolicy::allowed() }
    }

    /// Whether only DPoP is accepted.
    pub fn is_required(&self) -> bool {
        self.required
    }

    /// How far a proof's `iat` may be from the server's clock, either way
    /// ([`DEFAULT_PROOF_AGE`] unless set). A proof's `jti` is remembered for
    /// twice as long, so a replay is refused for as long as the proof would
    /// otherwise pass.
    #[must_use]
    pub fn with_proof_age(mut self, age: Duration) -> Self {
        self.proof_age = age;
        self
    }

    /// Hands out nonces and requires them in proofs (RFC 9449 §9): every
    /// answer of the endpoint carries a fresh one in `DPoP-Nonce`, and a
    /// proof without one, or with one too old or not made here, is answered
    /// `401` with `error="use_dpop_nonce"`. Nonces are kept nowhere: each is a MAC of a time window
    /// under a key every instance shares (from the server's
    /// [`Store`](crate::server::store::Store), made by the first instance
    /// that needs it, unless [`with_nonce_secret`](Self::with_nonce_secret)
    /// gives one), so any instance accepts the nonces of the others.
    #[must_use]
    pub fn with_nonces(mut self) -> Self {
        self.nonces.get_or_insert(NoncePolicy { lifetime: DEFAULT_NONCE_LIFETIME, secret: None });
        self
    }

    /// How long a nonce is accepted ([`DEFAULT_NONCE_LIFETIME`] unless set):
    /// at least this long, at most twice as long. Turns nonces on.
    #[must_use]
    pub fn with_nonce_lifetime(self, lifetime: Duration) -> Self {
        let mut policy = self.with_nonces();
        if let Some(nonces) = &mut policy.nonces {
            nonces.lifetime = lifetime.max(Duration::from_secs(1));
        }
        policy
    }

    /// The key nonces are made with, for instances that share no store
    /// (every instance must be given the same one; 32 random bytes or more).
    /// Turns nonces on.
    #[must_use]
    pub fn with_nonce_secret(self, secret: impl AsRef<[u8]>) -> Self {
        let mut policy = self.with_nonces();
        if let Some(nonces) = &mut policy.nonces {
            nonces.secret = Some(Arc::from(secret.as_ref()));
        }
        policy
    }
}

/// What a proof that passed the checks of RFC 9449 §4.3 that need neither
/// the token nor the store says.
#[derive(Debug)]
pub(crate) struct Proof {
    /// The RFC 7638 SHA-256 thumbprint of its key.
    pub(crate) jkt: String,
    /// Its identifier, for the replay check.
    pub(crate) jti: String,
    /// The access token's hash it names.
    pub(crate) ath: Option<String>,
    /// The nonce it carries.
    pub(crate) nonce: Option<String>,
}

/// Seconds since the Unix epoch.
pub(crate) fn unix_now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| i64::try_from(since.as_secs()).unwrap_or(i64::MAX))
}

/// base64url(SHA-256(`text`)): a token's `ath`.
pub(crate) fn sha256_b64(text: &str) -> String {
    BASE64_URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(text.as_bytes()))
}

fn decode_part(part: &str, what: &str) -> Result<Map<String, Value>, String> {
    let bytes = BASE64_URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| format!("the DPoP proof's {what} is not base64url without padding"))?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(object)) => Ok(object),
        _ => Err(format!("the DPoP proof's {what} is not a JSON object")),
    }
}

/// The string claim `name` of `claims`, bounded.
fn text<'a>(claims: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match claims.get(name) {
        None => Ok(None),
        Some(Value::String(text)) if text.len() <= MAX_CLAIM => Ok(Some(text)),
        Some(Value::String(_)) => Err(format!("the DPoP proof's `{name}` is longer than {MAX_CLAIM} bytes")),
        Some(_) => Err(format!("the DPoP proof's `{name}` is not a string")),
    }
}

fn required<'a>(claims: &'a Map<String, Value>, name: &str) -> Result<&'a str, String> {
    text(claims, name)?.ok_or_else(|| format!("the DPoP proof has no `{name}`"))
}

/// The private members a JWK may carry, none of which a proof's key may.
const PRIVATE_MEMBERS: [&str; 8] = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/// The proof's public key: the members its thumbprint is made of (RFC
/// 7638 §3.2, in lexicographic order), checked against `alg`.
fn public_key(jwk: &Map<String, Value>, alg: &str) -> Result<Vec<(&'static str, String)>, String> {
    if let Some(member) = PRIVATE_MEMBERS.iter().find(|member| jwk.contains_key(**member)) {
        return Err(format!("the DPoP proof's jwk has the private member `{member}`: it must be a public key"));
    }
    let member = |name: &'static str| -> Result<(&'static str, String), String> {
        match jwk.get(name) {
            Some(Value::String(value)) if value.len() <= MAX_CLAIM => Ok((name, value.clone())),
            _ => Err(format!("the DPoP proof's jwk has no `{name}` (a string)")),
        }
    };
    let length = |name: &str, value: &str| -> Result<usize, String> {
        BASE64_URL_SAFE_NO_PAD
            .decode(value)
            .map(|bytes| bytes.len())
            .map_err(|_| format!("the DPoP proof's jwk `{name}` is not base64url"))
    };
    let (kty, _) = member("kty")?;
    let kty_value = jwk.get(kty).and_then(Value::as_str).unwrap_or_default();
    let expected = match alg {
        "ES256" => ("EC", Some(("P-256", 32))),
        "ES384" => ("EC", Some(("P-384", 48))),
        "EdDSA" => ("OKP", Some(("Ed25519", 32))),
        _ => ("RSA", None),
    };
    if kty_value != expected.0 {
        return Err(format!(
            "the DPoP proof's jwk is of type `{kty_value}`, not the `{}` that {alg} needs",
            expected.0
        ));
    }
    match expected {
        ("RSA", _) => {
            let (e, n) = (member("e")?, member("n")?);
            let bits = 8 * length("n", &n.1)?;
            if bits < MIN_RSA_BITS {
                return Err(format!("the DPoP proof's RSA key has {bits} bits, fewer than {MIN_RSA_BITS}"));
            }
            Ok(vec![e, ("kty", kty_value.to_owned()), n])
        }
        (_, Some((curve, size))) => {
            let crv = member("crv")?;
            if crv.1 != curve {
                return Err(format!(
                    "the DPoP proof's jwk is on curve `{}`, not the `{curve}` that {alg} needs",
                    crv.1
                ));
            }
            let x = member("x")?;
            if length("x", &x.1)? != size {
                return Err(format!("the DPoP proof's jwk `x` is not {size} bytes"));
            }
            if kty_value == "OKP" {
                return Ok(vec![crv, ("kty", kty_value.to_owned()), x]);
            }
            let y = member("y")?;
            if length("y", &y.1)? != size {
                return Err(format!("the DPoP proof's jwk `y` is not {size} bytes"));
            }
            Ok(vec![crv, ("kty", kty_value.to_owned()), x, y])
        }
        _ => Err("the DPoP proof's key is not usable".to_owned()),
    }
}

/// The RFC 7638 JWK SHA-256 thumbprint of the key whose required members
/// are `members` (in lexicographic order), base64url.
fn thumbprint(members: &[(&'static str, String)]) -> String {
    // Written member by member, so the order is the RFC's whatever a JSON
    // map would do with it.
    let body = members
        .iter()
        .map(|(name, value)| format!("{}:{}", Value::from(*name), Value::from(value.as_str())))
        .collect::<Vec<_>>()
        .join(",");
    sha256_b64(&format!("{{{body}}}"))
}

/// Checks the proof `proof` (the `DPoP` header's value) of a `method`
/// request to `url` (this server's idea of the request's URL) at `now`,
/// allowing `iat` `age` either way: everything RFC 9449 §4.3 asks that needs
/// neither the token, the nonce nor the store.
pub(crate) fn check(proof: &str, method: &str, url: &str, now: i64, age: Duration) -> Result<Proof, String> {
    if proof.len() > MAX_PROOF {
        return Err(format!("the DPoP proof is longer than {MAX_PROOF} bytes"));
    }
    let mut parts = proof.trim().split('.');
    let (Some(header), Some(payload), Some(signature), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("the DPoP proof is not a JWT (three base64url parts joined by dots)".to_owned());
    };
    let header_fields = decode_part(header, "header")?;
    match text(&header_fields, "typ")? {
        Some(typ) if typ.eq_ignore_ascii_case("dpop+jwt") => {}
        Some(typ) => return Err(format!("the DPoP proof's `typ` is `{typ}`, not `dpop+jwt`")),
        None => return Err("the DPoP proof has no `typ` (`dpop+jwt`)".to_owned()),
    }
    let alg_name = required(&header_fields, "alg")?;
    let Some((alg_name, alg)) = ALGORITHMS.iter().find(|(name, _)| *name == alg_name).copied() else {
        return Err(format!(
            "the DPoP proof is signed with `{alg_name}`, which is not accepted (only {})",
            algorithm_names().join(", ")
        ));
    };
    if header_fields.contains_key("crit") {
        return Err("the DPoP proof's header has `crit` extensions, which this server does not understand".to_owned());
    }
    let Some(Value::Object(jwk)) = header_fields.get("jwk") else {
        return Err("the DPoP proof has no `jwk` (its public key) in its header".to_owned());
    };
    let members = public_key(jwk, alg_name)?;
    let key_json: Map<String, Value> =
        members.iter().map(|(name, value)| ((*name).to_owned(), Value::String(value.clone()))).collect();
    let key = serde_json::from_value::<Jwk>(Value::Object(key_json))
        .ok()
        .and_then(|jwk| DecodingKey::from_jwk(&jwk).ok())
        .ok_or_else(|| "the DPoP proof's jwk is not a usable public key".to_owned())?;
    let message = format!("{header}.{payload}");
    let verified = jsonwebtoken::crypto::verify(signature, message.as_bytes(), &key, alg).unwrap_or(false);
    if !verified {
        return Err("the DPoP proof's signature does not verify with the key in its header".to_owned());
    }
    // Signed by the key it names: its claims are now read.
    let claims = decode_part(payload, "payload")?;
    let jti = required(&claims, "jti")?;
    if jti.is_empty() {
        return Err("the DPoP proof's `jti` is empty".to_owned());
    }
    let htm = required(&claims, "htm")?;
    if htm != method {
        return Err(format!("the DPoP proof's htm `{htm}` is not the request's method `{method}`"));
    }
    let htu = required(&claims, "htu")?;
    match (normalize_url(htu), normalize_url(url)) {
        (Some(htu), Some(expected)) if htu == expected => {}
        (Some(_) | None, _) => return Err(format!("the DPoP proof's htu `{htu}` is not this request's URL `{url}`")),
    }
    let iat = match claims.get("iat") {
        Some(Value::Number(number)) => number
            .as_i64()
            .or_else(|| number.as_f64().filter(|value| value.is_finite()).map(|value| value as i64))
            .ok_or_else(|| "the DPoP proof's `iat` is not a time".to_owned())?,
        Some(_) => return Err("the DPoP proof's `iat` is not a number".to_owned()),
        None => return Err("the DPoP proof has no `iat`".to_owned()),
    };
    let allowed = i64::try_from(age.as_secs()).unwrap_or(i64::MAX);
    let off = now.saturating_sub(iat);
    if off > allowed {
        return Err(format!("the DPoP proof was made {off} s ago (iat), more than the {allowed} s allowed"));
    }
    if -off > allowed {
        return Err(format!("the DPoP proof is dated {} s ahead (iat), more than the {allowed} s allowed", -off));
    }
    Ok(Proof {
        jkt: thumbprint(&members),
        jti: jti.to_owned(),
        ath: text(&claims, "ath")?.map(str::to_owned),
        nonce: text(&claims, "nonce")?.map(str::to_owned),
    })
}

/// `url` without its query and fragment, normalised as RFC 9449 §4.3 asks
/// (RFC 3986 §6.2.2 and §6.2.3): scheme and host in lower case, the default
/// port left out, an empty path as `/`, percent-encodings in upper case and
/// unreserved characters decoded, dot segments removed. `None` for what is
/// not an `http` or `https` URL with a host (or carries user information).
pub(crate) fn normalize_url(url: &str) -> Option<String> {
    let url = url.split('#').next()?.split('?').next()?;
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let (authority, path) = rest.find('/').map_or((rest, ""), |slash| rest.split_at(slash));
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let authority = authority.to_ascii_lowercase();
    let (host, port) = match authority.rfind(':') {
        Some(colon) if !authority[colon..].contains(']') => (&authority[..colon], &authority[colon + 1..]),
        _ => (authority.as_str(), ""),
    };
    if host.is_empty() || !port.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let port = if port.is_empty() {
        String::new()
    } else {
        let digits = port.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        if digits == default_port { String::new() } else { format!(":{digits}") }
    };
    let path = if path.is_empty() { "/" } else { path };
    let path = remove_dot_segments(&normalize_percent(path)?);
    Some(format!("{scheme}://{host}{port}{path}"))
}

/// `path` with its percent-encodings in upper case and those of unreserved
/// characters decoded; `None` for a `%` not followed by two hex digits.
fn normalize_percent(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = path.get(at + 1..at + 3)?;
            let byte = u8::from_str_radix(hex, 16).ok()?;
            if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
                out.push(char::from(byte));
            } else {
                out.push('%');
                out.push_str(&hex.to_ascii_uppercase());
            }
            at += 3;
        } else {
            let next = path[at..].chars().next()?;
            out.push(next);
            at += next.len_utf8();
        }
    }
    Some(out)
}

/// RFC 3986 §5.2.4, for an absolute path.
fn remove_dot_segments(path: &str) -> String {
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let mut out: Vec<&str> = Vec::with_capacity(segments.len());
    for (index, segment) in segments.iter().enumerate() {
        let last = index + 1 == segments.len();
        match *segment {
            "." => {}
            ".." => {
                out.pop();
            }
            segment => {
                out.push(segment);
                continue;
            }
        }
        if last {
            out.push("");
        }
    }
    format!("/{}", out.join("/"))
}

/// The nonces of one resource server: a MAC of the current time window
/// under a shared key, so any instance verifies them and none keeps them.
pub(crate) struct Nonces {
    key: tokio::sync::Mutex<Option<NonceKey>>,
}

/// The key nonces are made with, and when it was read from the store
/// (never, when it was given).
type NonceKey = (Arc<[u8]>, Option<Instant>);

/// The store key of the shared nonce key.
const NONCE_KEY: &str = "dpop-nonce-key";
/// How long the shared nonce key is kept; every read pushes it back.
const NONCE_KEY_TTL: Duration = Duration::from_secs(365 * 24 * 3600);
/// How often an instance reads the shared key again (pushing back its expiry).
const NONCE_KEY_REREAD: Duration = Duration::from_secs(3600);

impl Nonces {
    /// Nonces made with `secret`, or with a key from the store when `None`.
    pub(crate) fn new(secret: Option<Arc<[u8]>>) -> Nonces {
        Nonces { key: tokio::sync::Mutex::new(secret.map(|secret| (secret, None))) }
    }

    async fn key(&self, store: &dyn Store) -> Result<Arc<[u8]>, StoreError> {
        let mut cached = self.key.lock().await;
        match &*cached {
            Some((key, None)) => return Ok(Arc::clone(key)),
            Some((key, Some(read))) if read.elapsed() < NONCE_KEY_REREAD => return Ok(Arc::clone(key)),
            _ => {}
        }
        let secret = match store.get(NONCE_KEY, NONCE_KEY_TTL).await? {
            Some(secret) => secret,
            None => {
                let fresh = crate::random::hex::<32>()
                    .map_err(|error| StoreError::new(format!("no DPoP nonce key can be made: {error}")))?;
                store.set_if_absent(NONCE_KEY, fresh, NONCE_KEY_TTL).await?
            }
        };
        let key: Arc<[u8]> = Arc::from(secret.trim().as_bytes());
        *cached = Some((Arc::clone(&key), Some(Instant::now())));
        Ok(key)
    }

    fn mac(key: &[u8], resource: &str, window: u64) -> String {
        let message = format!("codeagent dpop nonce\n{resource}\n{window}");
        BASE64_URL_SAFE_NO_PAD.encode(&hmac_sha256::HMAC::mac(message.as_bytes(), key)[..18])
    }

    /// A nonce for `resource`, good for the current window of `lifetime`.
    pub(crate) async fn make(
        &self,
        store: &dyn Store,
        resource: &str,
        lifetime: Duration,
        now: i64,
    ) -> Result<String, StoreError> {
        let key = self.key(store).await?;
        let window = window(now, lifetime);
        Ok(format!("{window}.{}", Nonces::mac(&key, resource, window)))
    }

    /// Whether `nonce` was made for `resource` in this window or the last.
    pub(crate) async fn accepts(
        &self,
        store: &dyn Store,
        resource: &str,
        lifetime: Duration,
        now: i64,
        nonce: &str,
    ) -> Result<bool, StoreError> {
        let Some((made, mac)) = nonce.split_once('.') else { return Ok(false) };
        let Ok(made) = made.parse::<u64>() else { return Ok(false) };
        let current = window(now, lifetime);
        if made != current && made.checked_add(1) != Some(current) {
            return Ok(false);
        }
        let key = self.key(store).await?;
        Ok(bool::from(Nonces::mac(&key, resource, made).as_bytes().ct_eq(mac.as_bytes())))
    }
}

fn window(now: i64, lifetime: Duration) -> u64 {
    u64::try_from(now).unwrap_or(0) / lifetime.as_secs().max(1)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use base64::Engine as _;
    use base64::prelude::BASE64_URL_SAFE_NO_PAD;
    use serde_json::{Value, json};

    use super::{MAX_PROOF, check, normalize_url, remove_dot_segments, thumbprint};

    /// A proof with `header` and `claims` and a made-up signature.
    fn unsigned(header: &Value, claims: &Value) -> String {
        let encode = |value: &Value| BASE64_URL_SAFE_NO_PAD.encode(value.to_string());
        format!("{}.{}.c2lnbmF0dXJl", encode(header), encode(claims))
    }

    #[test]
    fn malformed_proofs_are_refused_before_their_key_is_used() {
        let url = "https://tools.example.com/mcp";
        let claims = json!({"jti": "1", "htm": "POST", "htu": url, "iat": 0});
        let jwk = json!({"kty": "EC", "crv": "P-256", "x": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "y": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"});
        let refused = |proof: &str| check(proof, "POST", url, 0, Duration::from_secs(60)).unwrap_err();
        let cases = [
            (json!({"typ": "dpop+jwt", "alg": "none", "jwk": jwk}), "is signed with `none`, which is not accepted"),
            (json!({"typ": "dpop+jwt", "alg": "HS256", "jwk": jwk}), "is signed with `HS256`, which is not accepted"),
            (json!({"alg": "ES256", "jwk": jwk}), "has no `typ`"),
            (json!({"typ": "dpop+jwt", "alg": "ES256"}), "has no `jwk`"),
            (json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk, "crit": ["exp"]}), "`crit`"),
            (json!({"typ": "dpop+jwt", "alg": "ES384", "jwk": jwk}), "on curve `P-256`, not the `P-384`"),
            (json!({"typ": "dpop+jwt", "alg": "RS256", "jwk": jwk}), "of type `EC`, not the `RSA`"),
            (json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": {"kty": "oct", "k": "c2VjcmV0"}}), "private member `k`"),
            (json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}), "signature does not verify"),
        ];
        for (header, expected) in cases {
            let reason = refused(&unsigned(&header, &claims));
            assert!(reason.contains(expected), "{header}: {reason}");
        }
        assert!(refused("a.b").contains("not a JWT"));
        assert!(refused("!!.b.c").contains("not base64url"));
        assert!(refused(&"a".repeat(MAX_PROOF + 1)).contains("longer than"));
        let small_rsa = json!({"kty": "RSA", "e": "AQAB", "n": BASE64_URL_SAFE_NO_PAD.encode([1u8; 128])});
        let reason = refused(&unsigned(&json!({"typ": "dpop+jwt", "alg": "RS256", "jwk": small_rsa}), &claims));
        assert!(reason.contains("1024 bits, fewer than 2048"), "{reason}");
    }

    #[test]
    fn urls_are_normalised_as_rfc_3986_says() {
        let same = [
            ("https://Tools.Example.COM/mcp", "https://tools.example.com/mcp"),
            ("HTTPS://tools.example.com:443/mcp?x=1#y", "https://tools.example.com/mcp"),
            ("http://127.0.0.1:80", "http://127.0.0.1/"),
            ("http://127.0.0.1:8080/a/./b/../mcp", "http://127.0.0.1:8080/a/mcp"),
            ("http://h/%7euser/%2f", "http://h/~user/%2F"),
            ("http://[::1]:8080/mcp", "http://[::1]:8080/mcp"),
            ("http://[::1]/mcp", "http://[::1]/mcp"),
        ];
        for (url, normal) in same {
            assert_eq!(normalize_url(url).as_deref(), Some(normal), "{url}");
        }
        for bad in ["ftp://h/", "http://user@h/", "http:///x", "h/mcp", "http://h:x/", "http://h/%zz"] {
            assert_eq!(normalize_url(bad), None, "{bad}");
        }
        assert_eq!(remove_dot_segments("/a/b/.."), "/a/");
        assert_eq!(remove_dot_segments("/../.."), "/");
    }

    #[test]
    fn the_thumbprint_is_rfc_7638s_example() {
        // RFC 7638 §3.1's RSA key.
        let n = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
        let members = [("e", "AQAB".to_owned()), ("kty", "RSA".to_owned()), ("n", n.to_owned())];
        assert_eq!(thumbprint(&members), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
    }
}

//! The client's own keys: a private key it signs its client assertions with
//! ([`ClientKey`], RS256 or ES256, read from PEM or a JWK), and the ES256
//! key of its DPoP proofs, made when the client is (never leaves memory).

use std::sync::Arc;

use base64::Engine as _;
use base64::prelude::BASE64_URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{Jwk, ThumbprintHash};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::pkcs8::{DecodePrivateKey as _, EncodePrivateKey as _};
use rsa::pkcs1::{DecodeRsaPrivateKey as _, EncodeRsaPrivateKey as _};
use rsa::traits::PublicKeyParts as _;
use serde_json::Value;

/// The smallest RSA modulus accepted, in bits.
const RSA_MIN_BITS: usize = 2048;

/// A private key could not be used: what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the private key is not usable: {0}")]
pub struct KeyError(String);

impl KeyError {
    fn new(reason: impl Into<String>) -> KeyError {
        KeyError(reason.into())
    }
}

/// A private key a client signs its client assertions with
/// (`private_key_jwt`, RFC 7523 §2.2): an RSA key (2048 bits or more),
/// signing RS256, or a P-256 key, signing ES256. Read from PEM
/// ([`from_pem`](ClientKey::from_pem): PKCS#8 `PRIVATE KEY`, SEC1
/// `EC PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`) or from a private JWK
/// ([`from_jwk`](ClientKey::from_jwk)). Its `Debug` shows the algorithm and
/// the key id, never the key.
#[derive(Clone)]
pub struct ClientKey {
    algorithm: Algorithm,
    key: Arc<EncodingKey>,
    key_id: Option<String>,
}

impl std::fmt::Debug for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientKey")
            .field("algorithm", &self.algorithm)
            .field("key_id", &self.key_id)
            .field("key", &"<redacted>")
            .finish()
    }
}

impl ClientKey {
    /// The key in PEM text: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, RSA or
    /// P-256), SEC1 (`EC PRIVATE KEY`, P-256) or PKCS#1 (`RSA PRIVATE KEY`).
    /// Encrypted keys, other curves and RSA keys under 2048 bits are refused,
    /// saying which.
    pub fn from_pem(pem: &str) -> Result<ClientKey, KeyError> {
        let (label, der) = pem_rfc7468::decode_vec(pem.trim().as_bytes())
            .map_err(|error| KeyError::new(format!("it is not PEM text ({error})")))?;
        match label {
            "PRIVATE KEY" => {
                if let Ok(secret) = p256::SecretKey::from_pkcs8_der(&der) {
                    return ClientKey::p256(&secret);
                }
                match rsa::PrivateKey::from_pkcs8_der(&der) {
                    Ok(key) => ClientKey::rsa(&key),
                    Err(_) => Err(KeyError::new(
                        "the PKCS#8 key is neither a P-256 (ES256) nor an RSA (RS256) key, the two kinds supported",
                    )),
                }
            }
            "EC PRIVATE KEY" => {
                let secret = p256::SecretKey::from_sec1_der(&der).map_err(|_| {
                    KeyError::new("the EC key is not a P-256 key (ES256 is the elliptic curve algorithm supported)")
                })?;
                ClientKey::p256(&secret)
            }
            "RSA PRIVATE KEY" => {
                let key = rsa::PrivateKey::from_pkcs1_der(&der)
                    .map_err(|error| KeyError::new(format!("the PKCS#1 RSA key does not parse ({error})")))?;
                ClientKey::rsa(&key)
            }
            "ENCRYPTED PRIVATE KEY" => Err(KeyError::new("it is encrypted; give the decrypted key")),
            other => Err(KeyError::new(format!(
                "its PEM label is `{other}`, not PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY"
            ))),
        }
    }

    /// The key as a private JWK (RFC 7517, as JSON text): `kty` `EC` with
    /// `crv` `P-256` and `d` (and `x`, `y`, which must match it), or `kty`
    /// `RSA` with `n`, `e`, `d`, `p` and `q`. Its `kid`, when it has one,
    /// becomes the assertions' key id; an `alg` other than the key's is refused.
    pub fn from_jwk(jwk: &str) -> Result<ClientKey, KeyError> {
        let jwk: Value =
            serde_json::from_str(jwk).map_err(|error| KeyError::new(format!("the JWK is not JSON ({error})")))?;
        let member = |name: &str| -> Result<Vec<u8>, KeyError> {
            let text = jwk[name].as_str().ok_or_else(|| KeyError::new(format!("the JWK has no `{name}`")))?;
            BASE64_URL_SAFE_NO_PAD
                .decode(text.trim_end_matches('='))
                .map_err(|_| KeyError::new(format!("the JWK's `{name}` is not base64url")))
        };
        let key = match jwk["kty"].as_str() {
            Some("EC") => {
                if jwk["crv"].as_str() != Some("P-256") {
                    return Err(KeyError::new(format!(
                        "the JWK's curve is {}, not P-256 (ES256 is the elliptic curve algorithm supported)",
                        jwk["crv"]
                    )));
                }
                let secret = p256::SecretKey::from_slice(&member("d")?)
                    .map_err(|_| KeyError::new("the JWK's `d` is not a P-256 private key"))?;
                let key = ClientKey::p256(&secret)?;
                if jwk.get("x").is_some() || jwk.get("y").is_some() {
                    let public = key.public_jwk()?;
                    let expected = serde_json::to_value(&public).unwrap_or_default();
                    if expected["x"] != jwk["x"] || expected["y"] != jwk["y"] {
                        return Err(KeyError::new("the JWK's `x` and `y` are not the public key of its `d`"));
                    }
                }
                key
            }
            Some("RSA") => {
                let number = |name: &str| member(name).map(|bytes| rsa::BoxedUint::from_be_slice_vartime(&bytes));
                if jwk.get("oth").is_some() {
                    return Err(KeyError::new("RSA keys with more than two primes (`oth`) are not supported"));
                }
                let key = rsa::PrivateKey::from_components(
                    number("n")?,
                    number("e")?,
                    number("d")?,
                    vec![number("p")?, number("q")?],
                )
                .map_err(|error| KeyError::new(format!("the JWK's RSA parameters are not a valid key ({error})")))?;
                ClientKey::rsa(&key)?
            }
            Some(other) => return Err(KeyError::new(format!("the JWK's `kty` is `{other}`, not EC or RSA"))),
            None => return Err(KeyError::new("the JWK has no `kty`")),
        };
        if let Some(alg) = jwk["alg"].as_str().filter(|alg| *alg != key.algorithm()) {
            return Err(KeyError::new(format!("the JWK says `alg` {alg}, but the key signs {}", key.algorithm())));
        }
        Ok(match jwk["kid"].as_str() {
            Some(kid) => key.key_id(kid),
            None => key,
        })
    }

    /// The key id (`kid`) the assertions name in their header, so an
    /// authorization server with several keys of this client finds this one.
    #[must_use]
    pub fn key_id(mut self, key_id: impl Into<String>) -> ClientKey {
        self.key_id = Some(key_id.into());
        self
    }

    /// The algorithm this key signs with: `ES256` or `RS256`.
    pub fn algorithm(&self) -> &'static str {
        match self.algorithm {
            Algorithm::ES256 => "ES256",
            _ => "RS256",
        }
    }

    fn p256(secret: &p256::SecretKey) -> Result<ClientKey, KeyError> {
        let der = secret.to_pkcs8_der().map_err(|error| KeyError::new(format!("encoding the P-256 key: {error}")))?;
        Ok(ClientKey {
            algorithm: Algorithm::ES256,
            key: Arc::new(EncodingKey::from_ec_der(der.as_bytes())),
            key_id: None,
        })
    }

    fn rsa(key: &rsa::PrivateKey) -> Result<ClientKey, KeyError> {
        let bits = key.size() * 8;
        if bits < RSA_MIN_BITS {
            return Err(KeyError::new(format!("the RSA key has {bits} bits, fewer than {RSA_MIN_BITS}")));
        }
        let der = key.to_pkcs1_der().map_err(|error| KeyError::new(format!("encoding the RSA key: {error}")))?;
        Ok(ClientKey {
            algorithm: Algorithm::RS256,
            key: Arc::new(EncodingKey::from_rsa_der(der.as_bytes())),
            key_id: None,
        })
    }

    /// The public half, as a JWK.
    fn public_jwk(&self) -> Result<Jwk, KeyError> {
        Jwk::from_encoding_key(&self.key, self.algorithm)
            .map_err(|error| KeyError::new(format!("the public key could not be derived ({error})")))
    }

    /// `claims` signed with this key, with `typ` (and the public `jwk`, for
    /// a DPoP proof) in the header.
    pub(crate) fn sign(&self, typ: &str, jwk: Option<&Jwk>, claims: &Value) -> Result<String, String> {
        let mut header = Header::new(self.algorithm);
        header.typ = Some(typ.to_owned());
        header.kid.clone_from(&self.key_id);
        header.jwk = jwk.cloned();
        jsonwebtoken::encode(&header, claims, &self.key).map_err(|error| format!("signing a JWT failed: {error}"))
    }
}

/// The key of a client's DPoP proofs (RFC 9449): an ES256 key made for it,
/// its public JWK and that JWK's SHA-256 thumbprint (RFC 7638).
pub(crate) struct DpopKey {
    key: ClientKey,
    public: Jwk,
    thumbprint: String,
}

impl DpopKey {
    /// A new P-256 key from the system's randomness.
    pub(crate) fn generate() -> Result<DpopKey, String> {
        let secret = loop {
            let bytes = crate::random::bytes::<32>().map_err(|error| error.to_string())?;
            // Out of range (below 2^-32 odds): draw again.
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                break secret;
            }
        };
        let key = ClientKey::p256(&secret).map_err(|error| error.to_string())?;
        let mut public = key.public_jwk().map_err(|error| error.to_string())?;
        public.common.key_algorithm = None;
        let thumbprint =
            public.thumbprint(ThumbprintHash::SHA256).map_err(|error| format!("the DPoP key's thumbprint: {error}"))?;
        Ok(DpopKey { key, public, thumbprint })
    }

    /// The JWK SHA-256 thumbprint of the public key (what `cnf.jkt` names).
    pub(crate) fn thumbprint(&self) -> &str {
        &self.thumbprint
    }

    /// A DPoP proof for `method` on `url` (its query and fragment left out):
    /// a fresh `jti`, `iat` now, `ath` for `access_token`, `nonce` when the
    /// server gave one.
    pub(crate) fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, String> {
        let htu = url.split(['?', '#']).next().unwrap_or(url);
        let mut claims = serde_json::json!({
            "jti": crate::random::hex::<16>().map_err(|error| error.to_string())?,
            "htm": method,
            "htu": htu,
            "iat": now(),
        });
        if let Some(token) = access_token {
            claims["ath"] = Value::String(BASE64_URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(token.as_bytes())));
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = Value::String(nonce.to_owned());
        }
        self.key.sign("dpop+jwt", Some(&self.public), &claims)
    }
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Test keys made with openssl: a P-256 key (PKCS#8, SEC1, JWK) and a
    /// 2048-bit RSA key (PKCS#8, PKCS#1, JWK).
    const EC_PKCS8: &str = include_str!("testdata/ec-pkcs8.pem");
    const EC_SEC1: &str = include_str!("testdata/ec-sec1.pem");
    const EC_JWK: &str = include_str!("testdata/ec.jwk");
    const RSA_PKCS8: &str = include_str!("testdata/rsa-pkcs8.pem");
    const RSA_PKCS1: &str = include_str!("testdata/rsa-pkcs1.pem");
    const RSA_JWK: &str = include_str!("testdata/rsa.jwk");

    fn payload(jwt: &str) -> (Value, Value) {
        let mut parts = jwt.split('.');
        let mut decode = || serde_json::from_slice(&BASE64_URL_SAFE_NO_PAD.decode(parts.next().unwrap()).unwrap());
        (decode().unwrap(), decode().unwrap())
    }

    /// Verifies `jwt` with the public half of `key`, independently of how it was read.
    fn verifies(key: &ClientKey, jwt: &str) -> bool {
        let public = key.public_jwk().unwrap();
        let decoding = jsonwebtoken::DecodingKey::from_jwk(&public).unwrap();
        let mut validation = jsonwebtoken::Validation::new(key.algorithm);
        validation.required_spec_claims.clear();
        validation.validate_exp = false;
        jsonwebtoken::decode::<Value>(jwt, &decoding, &validation).is_ok()
    }

    #[test]
    fn reads_p256_and_rsa_keys_from_pem_and_jwk() {
        let claims = serde_json::json!({"iss": "c"});
        for (text, algorithm, kid) in [
            (EC_PKCS8, "ES256", None),
            (EC_SEC1, "ES256", None),
            (EC_JWK, "ES256", Some("ec-1")),
            (RSA_PKCS8, "RS256", None),
            (RSA_PKCS1, "RS256", None),
            (RSA_JWK, "RS256", Some("rsa-1")),
        ] {
            let key = if text.starts_with('{') { ClientKey::from_jwk(text) } else { ClientKey::from_pem(text) };
            let key = key.unwrap_or_else(|error| panic!("{algorithm} {kid:?}: {error}"));
            assert_eq!(key.algorithm(), algorithm);
            let signed = key.sign("JWT", None, &claims).unwrap();
            assert!(verifies(&key, &signed), "{algorithm} {kid:?}");
            assert_eq!(payload(&signed).0["kid"].as_str(), kid);
            assert_eq!(payload(&signed).0["alg"], algorithm);
        }
        // The same P-256 key, whichever way it was read.
        let from_pem = ClientKey::from_pem(EC_PKCS8).unwrap();
        let from_jwk = ClientKey::from_jwk(EC_JWK).unwrap();
        assert!(verifies(&from_pem, &from_jwk.sign("JWT", None, &claims).unwrap()));

        let mut wrong: Value = serde_json::from_str(EC_JWK).unwrap();
        wrong["x"] = Value::String("AAAA".into());
        let error = ClientKey::from_jwk(&wrong.to_string()).unwrap_err();
        assert!(error.to_string().contains("not the public key"), "{error}");
        let mut wrong: Value = serde_json::from_str(RSA_JWK).unwrap();
        wrong["alg"] = Value::String("ES256".into());
        let error = ClientKey::from_jwk(&wrong.to_string()).unwrap_err();
        assert!(error.to_string().contains("signs RS256"), "{error}");
    }

    #[test]
    fn refuses_what_it_cannot_use_saying_why() {
        let cases = [
            ("not a key", "not PEM"),
            ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----", "encrypted"),
            ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", "CERTIFICATE"),
        ];
        for (pem, reason) in cases {
            let error = ClientKey::from_pem(pem).unwrap_err().to_string();
            assert!(error.contains(reason), "{pem}: {error}");
        }
        let error = ClientKey::from_jwk(r#"{"kty":"oct","k":"AAAA"}"#).unwrap_err().to_string();
        assert!(error.contains("`oct`"), "{error}");
        let error = ClientKey::from_jwk(r#"{"kty":"EC","crv":"P-384","d":"AAAA"}"#).unwrap_err().to_string();
        assert!(error.contains("P-384"), "{error}");
    }

    #[test]
    fn the_debug_form_shows_no_key() {
        let text = format!("{:?}", ClientKey::from_pem(EC_PKCS8).unwrap().key_id("k"));
        assert!(text.contains("ES256") && text.contains("redacted") && !text.contains("jGHU"), "{text}");
    }

    #[test]
    fn dpop_proofs_carry_the_public_key_and_fresh_claims() {
        let key = DpopKey::generate().unwrap();
        let first = key.proof("POST", "https://rs.example/mcp?x=1#f", Some("token"), Some("n1")).unwrap();
        let second = key.proof("POST", "https://rs.example/mcp", None, None).unwrap();
        let (header, claims) = payload(&first);
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["alg"], "ES256");
        assert_eq!(header["jwk"]["kty"], "EC");
        assert!(header["jwk"].get("d").is_none(), "no private part: {header}");
        assert_eq!(claims["htu"], "https://rs.example/mcp");
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["nonce"], "n1");
        assert_eq!(claims["ath"], BASE64_URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(b"token")));
        let (_, again) = payload(&second);
        assert_ne!(claims["jti"], again["jti"]);
        assert!(again.get("ath").is_none() && again.get("nonce").is_none());
        // The thumbprint is the RFC 7638 one of the JWK in the header.
        let members = format!(r#"{{"crv":"P-256","kty":"EC","x":{},"y":{}}}"#, header["jwk"]["x"], header["jwk"]["y"]);
        assert_eq!(key.thumbprint(), BASE64_URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(members.as_bytes())));
    }
}

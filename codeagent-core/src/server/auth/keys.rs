//! The issuer's signing keys: its JWKS, found from its metadata (`jwks_uri`)
//! and cached; a token signed with a key id the cache lacks fetches the set
//! again, at most once every 30 seconds unless told otherwise, so a key
//! rotation needs no restart and a flood of made-up key ids costs the issuer
//! nothing.

use std::time::Duration;

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, jwk::Jwk};
use tokio::sync::Mutex;
// The runtime's clock (the system's, unless a test paused it to move it past the refetch interval).
use tokio::time::Instant;

use crate::net::HttpClient;
use crate::oauth::fetch::get_json;

/// The key set of one issuer.
pub(crate) struct Keys {
    issuer: String,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    jwks_uri: Option<String>,
    set: Option<JwkSet>,
    fetched: Option<Instant>,
}

impl Keys {
    /// The keys of `issuer`, fetched on first use.
    pub(crate) fn new(issuer: &str) -> Keys {
        Keys { issuer: issuer.to_owned(), cache: Mutex::default() }
    }

    /// The key `kid` names (or the only key, for a token without `kid`),
    /// fetching the set again when it lacks it and `refetch_every` has passed.
    pub(crate) async fn key(
        &self,
        client: &HttpClient,
        kid: Option<&str>,
        refetch_every: Duration,
    ) -> Result<(Jwk, DecodingKey), String> {
        let mut cache = self.cache.lock().await;
        if let Some(found) = cache.set.as_ref().and_then(|set| pick(set, kid)) {
            return found;
        }
        let due = cache.fetched.is_none_or(|at| at.elapsed() >= refetch_every);
        if !due {
            return Err(unknown(kid));
        }
        cache.fetched = Some(Instant::now());
        let jwks_uri = match &cache.jwks_uri {
            Some(uri) => uri.clone(),
            None => {
                let (found_at, metadata) = crate::oauth::server_metadata(client, &self.issuer).await?;
                let uri = metadata["jwks_uri"]
                    .as_str()
                    .ok_or_else(|| format!("the issuer's metadata at {found_at} has no jwks_uri"))?
                    .to_owned();
                cache.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let answer = get_json(client, &jwks_uri).await?;
        if !answer.status.is_success() {
            return Err(format!("the issuer's keys at {jwks_uri}: HTTP {}", answer.status.as_u16()));
        }
        let set: JwkSet = serde_json::from_value(answer.json)
            .map_err(|error| format!("the keys at {jwks_uri} are not a JWKS: {error}"))?;
        tracing::debug!("fetched {} signing keys of {}", set.keys.len(), self.issuer);
        let found = pick(&set, kid);
        cache.set = Some(set);
        found.unwrap_or_else(|| Err(unknown(kid)))
    }
}

fn unknown(kid: Option<&str>) -> String {
    match kid {
        Some(kid) => format!("the token is signed with key `{kid}`, which the issuer does not publish"),
        None => "the token names no key (`kid`) and the issuer publishes more than one".to_owned(),
    }
}

/// The key `kid` names in `set`, as a decoding key.
fn pick(set: &JwkSet, kid: Option<&str>) -> Option<Result<(Jwk, DecodingKey), String>> {
    let jwk = match kid {
        Some(kid) => set.find(kid)?,
        None if set.keys.len() == 1 => &set.keys[0],
        None => return None,
    };
    Some(
        DecodingKey::from_jwk(jwk)
            .map(|key| (jwk.clone(), key))
            .map_err(|error| format!("the issuer's key is not usable: {error}")),
    )
}

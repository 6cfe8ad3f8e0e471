//! Requests to a token endpoint, shared by every grant: the form posted
//! (with a DPoP proof when the client uses DPoP, sent again once with the
//! server's nonce when it asks for one, RFC 9449 §8), and the token read
//! from the answer.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use super::keys::DpopKey;
use crate::net::HttpClient;
use crate::oauth::fetch::{Answer, post_form_with};

/// A client's DPoP state: its key, and the last nonce each server (by
/// origin) gave.
pub(crate) struct Dpop {
    key: DpopKey,
    nonces: Mutex<HashMap<String, String>>,
}

impl Dpop {
    /// DPoP with a new key.
    pub(crate) fn new() -> Result<Dpop, String> {
        Ok(Dpop { key: DpopKey::generate()?, nonces: Mutex::default() })
    }

    /// The thumbprint of the key (`cnf.jkt` of the tokens bound to it).
    pub(crate) fn thumbprint(&self) -> &str {
        self.key.thumbprint()
    }

    /// A proof for `method` on `url`, for `access_token` when one is
    /// presented, with the nonce `url`'s server gave last.
    pub(crate) fn proof(&self, method: &str, url: &str, access_token: Option<&str>) -> Result<String, String> {
        let nonce = self.nonce(url);
        self.key.proof(method, url, access_token, nonce.as_deref())
    }

    /// The nonce the server of `url` gave last.
    fn nonce(&self, url: &str) -> Option<String> {
        let origin = crate::oauth::url::origin(url)?;
        self.nonces.lock().unwrap_or_else(PoisonError::into_inner).get(&origin).cloned()
    }

    /// Keeps `nonce`, given by the server of `url`; whether it is new.
    pub(crate) fn remember(&self, url: &str, nonce: &str) -> bool {
        let Some(origin) = crate::oauth::url::origin(url) else { return false };
        let mut nonces = self.nonces.lock().unwrap_or_else(PoisonError::into_inner);
        nonces.insert(origin, nonce.to_owned()).as_deref() != Some(nonce)
    }
}

/// How a client authenticates one token request: the form's fields and,
/// for `client_secret_basic`, the id and secret of the HTTP Basic header.
pub(crate) struct Form {
    pub(crate) fields: Vec<(&'static str, String)>,
    pub(crate) basic: Option<(String, String)>,
}

/// Posts the form `make` builds to the token endpoint `endpoint`, with a
/// DPoP proof when `dpop` is given; a `use_dpop_nonce` answer that brings
/// a nonce is followed by one more request, with it (and a form built
/// again: a client assertion is never sent twice).
pub(crate) async fn post_token(
    client: &HttpClient,
    endpoint: &str,
    dpop: Option<&Dpop>,
    make: impl Fn() -> Result<Form, String>,
) -> Result<Answer, String> {
    let mut retried = false;
    loop {
        let form = make()?;
        let fields: Vec<(&str, &str)> = form.fields.iter().map(|(name, value)| (*name, value.as_str())).collect();
        let basic = form.basic.as_ref().map(|(id, secret)| (id.as_str(), secret.as_str()));
        let proof = dpop.map(|dpop| dpop.proof("POST", endpoint, None)).transpose()?;
        let headers: Vec<(&str, &str)> = proof.iter().map(|proof| ("dpop", proof.as_str())).collect();
        let answer = post_form_with(client, endpoint, &fields, basic, &headers).await?;
        let (Some(dpop), Some(nonce)) = (dpop, answer.dpop_nonce.as_deref()) else { return Ok(answer) };
        let fresh = dpop.remember(endpoint, nonce);
        let asked = !answer.status.is_success() && answer.json["error"] == "use_dpop_nonce";
        if !asked || retried || !fresh {
            return Ok(answer);
        }
        retried = true;
    }
}

/// A token for a resource.
#[derive(Clone)]
pub(crate) struct Token {
    pub(crate) access: String,
    pub(crate) refresh: Option<String>,
    /// Bound to the client's DPoP key: presented with the `DPoP` scheme and a proof.
    pub(crate) dpop: bool,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Token")
            .field("access", &"<redacted>")
            .field("refresh", &self.refresh.as_ref().map(|_| "<redacted>"))
            .field("dpop", &self.dpop)
            .finish()
    }
}

/// The token of a token endpoint's answer (`refresh` kept when the answer
/// brings no new refresh token); `dpop` when the request carried a proof,
/// so a `DPoP` token type is expected (a `Bearer` one is taken as well).
pub(crate) fn token_of(answer: &Answer, refresh: Option<&str>, dpop: bool) -> Result<Token, String> {
    if !answer.status.is_success() {
        return Err(format!("the token endpoint refused: {}", answer.oauth_error()));
    }
    let access = answer.json["access_token"].as_str().ok_or("the token endpoint's answer has no access_token")?;
    let kind = answer.json["token_type"].as_str().unwrap_or("Bearer");
    let bound = if kind.eq_ignore_ascii_case("bearer") {
        false
    } else if kind.eq_ignore_ascii_case("dpop") && dpop {
        true
    } else if kind.eq_ignore_ascii_case("dpop") {
        return Err("the token endpoint gave a `DPoP` token to a request without a DPoP proof: refused".into());
    } else {
        return Err(format!("the token endpoint gave a `{kind}` token; this client uses Bearer and DPoP tokens only"));
    };
    let refresh = answer.json["refresh_token"].as_str().or(refresh).map(str::to_owned);
    Ok(Token { access: access.to_owned(), refresh, dpop: bound })
}

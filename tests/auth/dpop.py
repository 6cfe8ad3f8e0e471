"""DPoP proofs (RFC 9449) made by an independent library, joserfc, for the
resource server's DPoP tests (tests/auth/dpop.rs). Installed into ./.venv by
tests/auth/install.sh (pinned in tests/auth/requirements.txt).

One JSON request a line on standard input, one JSON answer a line on standard
output, for as long as standard input is open:

  {"op": "key", "name": "k", "kty": "EC" | "RSA" | "OKP"}
      makes a key pair (P-256, 2048-bit RSA, Ed25519): {"jkt": RFC 7638 thumbprint, "jwk": public}
  {"op": "proof", "key": "k", "htm": "POST", "htu": "http://...", "iat": 1700000000,
   "token": "...", "nonce": "...", "jti": "...", "omit": ["ath", ...],
   "header": {...}, "private_jwk": false}
      a proof signed with key k: {"proof": "..."}; `ath` is base64url(SHA-256(token)) unless
      omitted or given as "ath"; `jti` random unless given; `header` merged over the
      header (`typ`, `alg`, `jwk`); `private_jwk` puts the private key in `jwk`.
"""

import base64
import hashlib
import json
import secrets
import sys
import time
import warnings

from joserfc import jwt
from joserfc.jwk import ECKey, OKPKey, RSAKey

# joserfc flags "EdDSA" as deprecated in favour of "Ed25519" (RFC 9864); the
# proofs here use the name RFC 9449 deployments use.
warnings.simplefilter("ignore")

ALGORITHMS = {"EC": "ES256", "RSA": "RS256", "OKP": "EdDSA"}
keys = {}


def make_key(kty):
    if kty == "EC":
        return ECKey.generate_key("P-256")
    if kty == "RSA":
        return RSAKey.generate_key(2048)
    if kty == "OKP":
        return OKPKey.generate_key("Ed25519")
    raise ValueError(f"unknown kty {kty}")


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def proof(request):
    kty, key = keys[request["key"]]
    alg = ALGORITHMS[kty]
    header = {
        "typ": "dpop+jwt",
        "alg": alg,
        "jwk": key.as_dict(private=bool(request.get("private_jwk"))),
    }
    header.update(request.get("header", {}))
    claims = {
        "jti": request.get("jti") or secrets.token_urlsafe(16),
        "htm": request["htm"],
        "htu": request["htu"],
        "iat": request.get("iat", int(time.time())),
    }
    if "token" in request:
        claims["ath"] = b64(hashlib.sha256(request["token"].encode("ascii")).digest())
    if "ath" in request:
        claims["ath"] = request["ath"]
    if request.get("nonce") is not None:
        claims["nonce"] = request["nonce"]
    for name in request.get("omit", []):
        claims.pop(name, None)
    return jwt.encode(header, claims, key, algorithms=[header["alg"]])


def answer(request):
    if request["op"] == "key":
        key = make_key(request["kty"])
        keys[request["name"]] = (request["kty"], key)
        return {"jkt": key.thumbprint(), "jwk": key.as_dict(private=False)}
    if request["op"] == "proof":
        return {"proof": proof(request)}
    raise ValueError(f"unknown op {request['op']}")


for line in sys.stdin:
    try:
        reply = answer(json.loads(line))
    except Exception as error:  # reported to the test, which fails with it
        reply = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(reply), flush=True)

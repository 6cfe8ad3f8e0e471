"""Checks, with jwcrypto (a JOSE library no one here wrote), what codeagent's
client sent in tests/client/machine.rs: its private_key_jwt client assertions
(RFC 7523) and its DPoP proofs (RFC 9449), read as JSON from the file named
by the first argument. Prints `verified N assertions and M proofs`; exits
non-zero naming the first thing wrong."""

import base64
import hashlib
import json
import sys
import time

from jwcrypto import jwk, jws


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    sys.exit(1)


def verified(token: str, key: jwk.JWK) -> tuple[dict, dict]:
    """The header and claims of `token`, whose signature `key` verifies."""
    signed = jws.JWS()
    signed.deserialize(token)
    signed.verify(key)
    return signed.jose_header, json.loads(signed.payload)


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        seen = json.load(file)
    now = time.time()

    client_key = jwk.JWK.from_pem(seen["client_key_pem"].encode())
    public_client_key = jwk.JWK()
    public_client_key.import_key(**client_key.export_public(as_dict=True))
    jtis = set()
    for assertion in seen["assertions"]:
        header, claims = verified(assertion, public_client_key)
        if header.get("alg") != seen["assertion_alg"]:
            fail(f"assertion alg {header.get('alg')}, not {seen['assertion_alg']}")
        if claims["iss"] != seen["client_id"] or claims["sub"] != seen["client_id"]:
            fail(f"assertion iss/sub {claims['iss']}/{claims['sub']}, not {seen['client_id']}")
        if claims["aud"] != seen["issuer"]:
            fail(f"assertion aud {claims['aud']}, not {seen['issuer']}")
        if not 0 < claims["exp"] - claims["iat"] <= 300 or claims["exp"] < now:
            fail(f"assertion lifetime iat {claims['iat']} exp {claims['exp']} (now {now})")
        if claims["jti"] in jtis:
            fail(f"assertion jti {claims['jti']} used twice")
        jtis.add(claims["jti"])

    expected_ath = b64url(hashlib.sha256(seen["access_token"].encode()).digest())
    proofs = 0
    jtis = set()
    for proof in seen["proofs"]:
        header = json.loads(base64.urlsafe_b64decode(proof["jwt"].split(".")[0] + "=="))
        if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256":
            fail(f"proof header {header}")
        if "d" in header["jwk"]:
            fail("the proof's jwk carries the private key")
        key = jwk.JWK(**header["jwk"])
        if key.has_private:
            fail("the proof's jwk is private")
        _, claims = verified(proof["jwt"], key)
        if key.thumbprint() != seen["thumbprint"]:
            fail(f"proof key thumbprint {key.thumbprint()}, not {seen['thumbprint']}")
        if claims["htm"] != proof["method"] or claims["htu"] != proof["url"]:
            fail(f"proof htm/htu {claims['htm']} {claims['htu']}, not {proof['method']} {proof['url']}")
        if abs(claims["iat"] - now) > 120:
            fail(f"proof iat {claims['iat']} is not now ({now})")
        if claims["jti"] in jtis:
            fail(f"proof jti {claims['jti']} used twice")
        jtis.add(claims["jti"])
        if proof["presents_token"] and claims.get("ath") != expected_ath:
            fail(f"proof ath {claims.get('ath')}, not {expected_ath}")
        if not proof["presents_token"] and "ath" in claims:
            fail("a token request's proof has an ath")
        if claims.get("nonce") != proof.get("nonce"):
            fail(f"proof nonce {claims.get('nonce')}, not {proof.get('nonce')}")
        proofs += 1
    print(f"verified {len(seen['assertions'])} assertions and {proofs} proofs")


main()

// The issuer of the authorization tests: oauth2-mock-server (a real OAuth 2.1
// and OpenID Connect issuer: discovery, JWKS, authorization code with PKCE,
// client credentials, RS256 keys it rotates), configured the way an issuer for
// MCP servers is: a token's `aud` is the resource it was asked for (RFC 8707),
// and the scope approved at /authorize is the token's.
//
//   node issuer.mjs [PORT]      prints `issuer http://127.0.0.1:PORT` once it listens
//
// Test controls, under /test/ (the tests' only way in besides OAuth itself):
//   POST /test/mint    {"claims": {...}, "expiresIn": s, "kid": k}  a token signed by the issuer,
//                      with claims set (null removes one); answers {"token": "..."}
//   POST /test/rotate  a new signing key, used from now on; answers {"kid": "..."}
//   POST /test/opaque  {"claims": {...}}  an opaque token /introspect describes with these
//                      claims (active); any other token it calls inactive (RFC 7662)
//   POST /test/client  {"id": "...", "secret": "..."}  a confidential client: from now on its
//                      client credentials and token exchange requests must authenticate with
//                      this secret (HTTP Basic or the form), else 401 invalid_client
//   GET  /test/exchanges  {"count": n}: the token exchanges granted so far
//
// RFC 8693 token exchange, which the mock lacks, is scripted here on its keys: a registered
// client exchanges an access token this issuer signed (`subject_token`, checked with jose: the
// signature against the issuer's JWKS, `iss`, `exp`) for one whose `aud` is the `resource` (or
// `audience`) asked for, with the subject's `sub` and scopes (or the `scope` asked, when the
// subject has each), `client_id` the client and `act` {"sub": client} (RFC 8693 §4.1).
// The client credentials grant gets `sub` and `client_id` = the client.
import http from "node:http";
import { createLocalJWKSet, jwtVerify } from "jose";
import { OAuth2Server } from "oauth2-mock-server";

const port = Number(process.argv[2] ?? 0);
const server = new OAuth2Server();
await server.issuer.keys.generate("RS256", { kid: "key-1" });
let current = "key-1";
let rotations = 1;

// What each authorization code was issued for.
const approved = new Map();
server.service.on("beforeAuthorizeRedirect", (redirect, req) => {
  const code = redirect.url.searchParams.get("code");
  if (code) approved.set(code, { scope: req.query.scope, resource: req.query.resource });
});
// Confidential clients registered by the tests: id -> secret.
const clients = new Map();
let exchanges = 0;

// The client a token request authenticates as, or why it is refused.
function authenticated(req, form) {
  let id = form.get("client_id");
  let secret = form.get("client_secret");
  const basic = req.headers.authorization?.match(/^Basic (.+)$/i);
  if (basic) {
    const text = Buffer.from(basic[1], "base64").toString();
    const colon = text.indexOf(":");
    id = decodeURIComponent(text.slice(0, colon));
    secret = decodeURIComponent(text.slice(colon + 1));
  }
  if (!id) return { error: "the request names no client" };
  if (!clients.has(id)) return { id, registered: false };
  if (clients.get(id) !== secret) return { error: `wrong secret for the client ${id}` };
  return { id, registered: true };
}

async function tokenExchange(req, res, form) {
  const client = authenticated(req, form);
  if (client.error || !client.registered) {
    return json(res, 401, { error: "invalid_client", error_description: client.error ?? "unknown client" });
  }
  const accessType = "urn:ietf:params:oauth:token-type:access_token";
  if (form.get("subject_token_type") !== accessType) {
    return json(res, 400, { error: "invalid_request", error_description: "subject_token_type must be an access token" });
  }
  const target = form.get("resource") ?? form.get("audience");
  if (!target) return json(res, 400, { error: "invalid_target", error_description: "no resource or audience" });
  let subject;
  try {
    const keys = createLocalJWKSet({ keys: server.issuer.keys.toJSON() });
    ({ payload: subject } = await jwtVerify(form.get("subject_token") ?? "", keys, { issuer: server.issuer.url }));
  } catch (error) {
    return json(res, 400, { error: "invalid_grant", error_description: `subject_token: ${error.message}` });
  }
  const held = String(subject.scope ?? "").split(" ").filter(Boolean);
  const asked = (form.get("scope") ?? "").split(" ").filter(Boolean);
  if (asked.some((scope) => !held.includes(scope))) {
    return json(res, 400, { error: "invalid_scope", error_description: "more scopes than the subject token has" });
  }
  const scope = (asked.length ? asked : held).join(" ");
  const expiresIn = 3600;
  const token = await server.issuer.buildToken({
    kid: current,
    expiresIn,
    scopesOrTransform: (header, payload) => {
      Object.assign(payload, { sub: subject.sub, aud: target, client_id: client.id, act: { sub: client.id } });
      if (scope) payload.scope = scope;
    },
  });
  exchanges += 1;
  return json(res, 200, {
    access_token: token,
    issued_token_type: accessType,
    token_type: "Bearer",
    expires_in: expiresIn,
    scope,
  });
}

server.service.on("beforeTokenSigning", (token, req) => {
  token.header.kid = current;
  if (req.body?.grant_type === "client_credentials" && req.clientId) {
    token.payload.sub = req.clientId;
    token.payload.client_id = req.clientId;
  }
  const grant = req.body?.code ? approved.get(req.body.code) : undefined;
  const resource = req.body?.resource ?? grant?.resource;
  if (resource) token.payload.aud = resource;
  if (grant?.scope) token.payload.scope = grant.scope;
});

// The opaque tokens /introspect knows, with their claims.
const opaque = new Map();
server.service.on("beforeIntrospect", (response, req) => {
  const claims = opaque.get(req.body?.token);
  response.body = claims ? { active: true, ...claims } : { active: false };
});

function body(req) {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => resolve(text ? JSON.parse(text) : {}));
  });
}

function json(res, status, value) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

const handler = server.service.requestHandler;
const listener = http.createServer(async (req, res) => {
  try {
    if (req.method === "POST" && req.url === "/test/mint") {
      const { claims = {}, expiresIn, kid } = await body(req);
      const token = await server.issuer.buildToken({
        kid: kid ?? current,
        expiresIn,
        scopesOrTransform: (header, payload) => {
          for (const [name, value] of Object.entries(claims)) {
            if (value === null) delete payload[name];
            else payload[name] = value;
          }
        },
      });
      return json(res, 200, { token });
    }
    if (req.method === "POST" && req.url === "/test/opaque") {
      const { claims = {} } = await body(req);
      const token = `opaque-${opaque.size + 1}-${Math.random().toString(36).slice(2)}`;
      opaque.set(token, { iss: server.issuer.url, ...claims });
      return json(res, 200, { token });
    }
    if (req.method === "POST" && req.url === "/test/rotate") {
      rotations += 1;
      current = `key-${rotations}`;
      await server.issuer.keys.generate("RS256", { kid: current });
      return json(res, 200, { kid: current });
    }
    if (req.method === "POST" && req.url === "/test/client") {
      const { id, secret } = await body(req);
      clients.set(id, secret);
      return json(res, 200, { id });
    }
    if (req.method === "GET" && req.url === "/test/exchanges") {
      return json(res, 200, { count: exchanges });
    }
    if (req.method === "POST" && req.url === "/token") {
      const text = await new Promise((resolve) => {
        let data = "";
        req.on("data", (chunk) => (data += chunk));
        req.on("end", () => resolve(data));
      });
      const form = new URLSearchParams(text);
      if (form.get("grant_type") === "urn:ietf:params:oauth:grant-type:token-exchange") {
        return await tokenExchange(req, res, form);
      }
      if (form.get("grant_type") === "client_credentials") {
        const client = authenticated(req, form);
        if (client.error) return json(res, 401, { error: "invalid_client", error_description: client.error });
        req.clientId = client.id;
      }
      // The mock's own grants: give it the body parsed.
      req.body = Object.fromEntries(form);
      req._body = true;
    }
    if (req.method === "POST" && req.url === "/introspect") {
      // The mock's introspection route parses no form: give it the body parsed.
      const text = await new Promise((resolve) => {
        let data = "";
        req.on("data", (chunk) => (data += chunk));
        req.on("end", () => resolve(data));
      });
      req.body = Object.fromEntries(new URLSearchParams(text));
      req._body = true;
    }
    handler(req, res);
  } catch (error) {
    json(res, 500, { error: String(error) });
  }
});
listener.listen(port, "127.0.0.1", () => {
  const url = `http://127.0.0.1:${listener.address().port}`;
  server.issuer.url = url;
  console.log(`issuer ${url}`);
});

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
import http from "node:http";
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
server.service.on("beforeTokenSigning", (token, req) => {
  token.header.kid = current;
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

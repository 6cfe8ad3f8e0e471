#!/usr/bin/env node
// Interop test: drives the codeagent gallery MCP server (examples/gallery.rs) over stdio with the real
// TypeScript MCP client SDKs pinned in package.json:
//
//   sdk-v1 legacy        @modelcontextprotocol/sdk (v1: handshake era only), initialize
//   client-v2 legacy     @modelcontextprotocol/client (v2), versionNegotiation 'legacy' (its default)
//   client-v2 2026-07-28 @modelcontextprotocol/client, versionNegotiation { pin: '2026-07-28' }
//   client-v2 auto       @modelcontextprotocol/client, versionNegotiation 'auto' (must pick 2026-07-28)
//
// Each suite runs the whole check list: the listing, every tool's content / structuredContent / isError (a
// table's rows in the artifact in _meta, never as structuredContent; a JSON-looking scalar text as
// {"result": ...} structuredContent in 2025-11-25 only), output-schema validation by the SDK, progress (onprogress + resetTimeoutOnProgress), logging,
// cancellation (AbortSignal), a request timeout, invalid arguments and an unknown tool. A tap on the
// stdio transport records every JSON-RPC message, so ordering and "no response for a cancelled request"
// are checked on the wire too.
//
// Then each suite answers the tools that ask (delete_region, summarize_sales) with the SDK's own request
// handlers (sdk v1: setRequestHandler(ElicitRequestSchema / CreateMessageRequestSchema); client v2:
// setRequestHandler('elicitation/create' / 'sampling/createMessage'), and inputRequired.autoFulfill in
// 2026-07-28), over stdio and over HTTP (one `gallery --http 127.0.0.1:PORT` shared by every suite, so
// each suite deletes a region of its own), and checks a client that declares neither capability.
//
// Usage: node gallery.test.mjs PATH/TO/gallery [SUITE ...]   (SUITE: v1-legacy, v2-legacy, v2-2026-07-28, v2-auto)
// Prints one line per check and, last, `N passed, M failed`; exits 1 if any check failed. Node >= 20.

import { spawn as spawnProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect as tcpConnect, createServer as tcpServer } from 'node:net';
import { inflateSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, ProtocolError, SdkError, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

const MODERN = '2026-07-28';
const LEGACY_VERSION = '2025-11-25'; // what both TS SDKs offer in initialize
const REQUEST_TIMEOUT = 20_000;
const SUITE_TIMEOUT = 120_000;

const TOOL_NAMES = ['add', 'greet', 'sales_table', 'sales_history', 'revenue_chart', 'show_code', 'show_diff', 'divide', 'region_stats', 'count_with_progress', 'slow', 'region_report', 'delete_region', 'summarize_sales', 'sales_report'];
const REGIONS = ['north', 'south', 'east', 'west'];
// name -> [title, description prefix, required, {property: JSON type}]; a null type means "an enum of REGIONS"
const LISTING = {
  add: [undefined, 'Add two integers.', ['a', 'b'], { a: 'integer', b: 'integer' }],
  greet: ['Greeting', 'Greet someone by name, as plain text.', ['name'], { name: 'string' }],
  sales_table: ['Sales table', 'List sales records as a table, optionally for one region.', [], { region: null }],
  sales_history: ['Sales history', 'List the daily sales history as a large table (`rows` rows, made up).', ['rows'], { rows: 'integer' }],
  revenue_chart: ['Revenue chart', 'Draw a bar chart of revenue per region as a PNG image.', [], {}],
  show_code: [undefined, 'Show a Rust function that adds two numbers.', [], {}],
  show_diff: [undefined, 'Show the change that renames a function.', [], {}],
  divide: [undefined, 'Divide two numbers; dividing by zero is a tool error the model can read.', ['numerator', 'denominator'], { numerator: 'number', denominator: 'number' }],
  region_stats: ['Region statistics', 'Structured statistics for one region.', ['region'], { region: null }],
  count_with_progress: [undefined, 'Count to `steps`, reporting progress after each step.', ['steps'], { steps: 'integer' }],
  slow: [undefined, 'Wait for `seconds`, or until the client cancels.', ['seconds'], { seconds: 'number' }],
  region_report: ['Region report', "A link to the resource holding one region's statistics", ['region'], { region: null }],
  delete_region: ["Delete a region's records", "Delete one region's sales records, after asking you to confirm.", ['region'], { region: null }],
  summarize_sales: ['Summarise sales', "Summarise the sales table in one sentence, written by the client's model.", [], { region: null }],
  sales_report: ['Sales report', 'Build the sales report, region by region, over `seconds` seconds.', ['seconds'], { seconds: 'integer' }],
};
const ANNOTATIONS = {
  add: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  delete_region: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  summarize_sales: { readOnlyHint: true },
  sales_report: { readOnlyHint: true },
};
// Tables list no outputSchema: their rows travel in the artifact in _meta, not as structuredContent.
const WITH_OUTPUT_SCHEMA = new Set(['region_stats']);
const ARTIFACT_KEY = 'dev.codeagent/artifact';
const INSTRUCTIONS = 'Example tools, one per kind of output: text, table, image, code, diff, error, JSON.';
const TABLE_HEADER = '| region | product | units | revenue |\n| --- | --- | --- | --- |\n';
const TABLE_COLUMNS = [
  { name: 'region', type: 'string' },
  { name: 'product', type: 'string' },
  { name: 'units', type: 'integer' },
  { name: 'revenue', type: 'number' },
];
const NORTH_ROWS = [['north', 'kettle', 120, 3600], ['north', 'toaster', 80, 2000]];
const HISTORY_HEADER = '| day | region | units | revenue |\n| --- | --- | --- | --- |\n';
const HISTORY_COLUMNS = [
  { name: 'day', type: 'integer' },
  { name: 'region', type: 'string' },
  { name: 'units', type: 'integer' },
  { name: 'revenue', type: 'number' },
];
// Keywords whose values are data, not schemas: a `format` inside them is no schema's format.
const SCHEMA_DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
const CODE_FENCE = '```rust\nfn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n```';
// typescript-sdk#2580: Protocol dispatches notifications a microtask late but responses at once, so a
// progress notification that arrives in the same read as its response finds its handler gone; the SDK
// drops it and reports it through onerror.
const LATE_PROGRESS = 'Received a progress notification for an unknown token';

// ------------------------------------------------------------------------------------------------
// Results

let passed = 0;
let failed = 0;
const failures = [];
let prefix = '';

function check(name, ok, detail = '') {
  const label = `${prefix}${name}`;
  if (ok) {
    passed++;
    console.log(`ok   ${label}`);
  } else {
    failed++;
    failures.push(label);
    console.log(`FAIL ${label}${detail ? `: ${detail}` : ''}`);
  }
  return ok;
}

const show = value => (value === undefined ? 'undefined' : JSON.stringify(value));
const deepEqual = (a, b) => show(canonical(a)) === show(canonical(b));
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map(k => [k, canonical(value[k])]));
  return value;
}
const eq = (name, actual, expected) => check(name, deepEqual(actual, expected), `expected ${show(expected)}, got ${show(actual)}`);
const contains = (name, text, needle) => check(name, typeof text === 'string' && text.includes(needle), `${show(needle)} not in ${show(text)}`);

async function group(name, body) {
  try {
    await body();
  } catch (error) {
    check(`${name}: completes without raising`, false, `${error?.constructor?.name}: ${error?.message ?? error}`);
    console.log(error?.stack ?? error);
  }
}

// ------------------------------------------------------------------------------------------------
// The wire tap: patches the transport INSTANCE (its prototype must stay the SDK's own StdioClientTransport,
// or client v2 probes in place instead of on a sibling process).

class Wire {
  constructor() {
    this.log = []; // [direction, message]
  }
  record(direction, message) {
    this.log.push([direction, JSON.parse(JSON.stringify(message))]);
  }
  mark() {
    return this.log.length;
  }
  sent(since = 0) {
    return this.log.slice(since).filter(([d]) => d === 'out').map(([, m]) => m);
  }
  received(since = 0) {
    return this.log.slice(since).filter(([d]) => d === 'in').map(([, m]) => m);
  }
  requestId(method, since = 0, name) {
    const found = this.sent(since).reverse().find(m => m.method === method && 'id' in m && (name === undefined || m.params?.name === name));
    return found?.id;
  }
  responsePosition(id) {
    const position = this.log.findIndex(([d, m]) => d === 'in' && !('method' in m) && m.id === id);
    return position < 0 ? undefined : position;
  }
  response(id) {
    const position = this.responsePosition(id);
    return position === undefined ? undefined : this.log[position][1];
  }
}

function tap(transport, wire) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.record('out', message);
    return send(message, options);
  };
  let handler;
  const seen = new WeakSet();
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get() {
      if (!handler) return undefined;
      return (message, extra) => {
        if (message && typeof message === 'object' && !seen.has(message)) {
          seen.add(message);
          wire.record('in', message);
        }
        return handler(message, extra);
      };
    },
    set(value) {
      handler = value;
    },
  });
}

// ------------------------------------------------------------------------------------------------
// Helpers

const onlyText = result => (result.content?.length === 1 && result.content[0].type === 'text' ? result.content[0].text : undefined);
/** The codeagent artifact the result carries in `_meta`. */
const artifactOf = result => result._meta?.[ARTIFACT_KEY] ?? {};
/** A table result's data, `{columns, rows}`: in the artifact's payload, its only copy. */
const tableDf = result => artifactOf(result).payload?.df;
const rows = result => tableDf(result)?.rows ?? [];

/**
 * What a tool without an outputSchema whose text is JSON other than an object (`5`, `0.25`) brings as
 * structuredContent: `{result: value}` in 2025-11-25 (its structuredContent is an object), nothing in 2026-07-28.
 */
const jsonTextStructured = (value, modern) => (modern ? ['no structuredContent (2026-07-28)', undefined] : [`structuredContent {"result":${show(value)}} (2025-11-25)`, { result: value }]);

/** Every `format` a schema (and the schemas inside it) names. */
function formatsIn(node) {
  if (Array.isArray(node)) return node.flatMap(formatsIn);
  if (!node || typeof node !== 'object') return [];
  const own = typeof node.format === 'string' ? [node.format] : [];
  return own.concat(Object.entries(node).flatMap(([key, value]) => (SCHEMA_DATA_KEYWORDS.has(key) ? [] : formatsIn(value))));
}

function resolve(schema, node) {
  const ref = node?.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    let target = schema;
    for (const part of ref.slice(2).split('/')) target = target?.[part];
    const { $ref, ...rest } = node;
    return { ...target, ...rest };
  }
  return node ?? {};
}

function enumOf(schema, node) {
  node = resolve(schema, node);
  if (Array.isArray(node.enum)) return node.enum;
  for (const key of ['anyOf', 'oneOf']) {
    for (const branch of node[key] ?? []) {
      const found = enumOf(schema, branch);
      if (found) return found;
    }
  }
  return undefined;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A structurally valid 160x100 PNG: signature, IHDR first, every CRC, IDAT inflating to the right size, IEND last. */
function checkPng(data) {
  if (!data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'bad signature';
  let position = 8;
  const chunks = [];
  const idat = [];
  let ihdr;
  while (position + 12 <= data.length) {
    const length = data.readUInt32BE(position);
    const kind = data.subarray(position + 4, position + 8);
    const body = data.subarray(position + 8, position + 8 + length);
    if (crc32(Buffer.concat([kind, body])) !== data.readUInt32BE(position + 8 + length)) return `bad CRC in chunk ${kind}`;
    chunks.push(kind.toString('latin1'));
    if (chunks.at(-1) === 'IHDR') ihdr = body;
    if (chunks.at(-1) === 'IDAT') idat.push(body);
    position += 12 + length;
  }
  if (chunks[0] !== 'IHDR' || chunks.at(-1) !== 'IEND' || position !== data.length) return `bad chunk layout ${chunks}`;
  const [width, height, depth, color, interlace] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[12]];
  if (width !== 160 || height !== 100) return `IHDR says ${width}x${height}, expected 160x100`;
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[color];
  if (!channels || depth !== 8 || interlace !== 0) return `unexpected IHDR depth=${depth} color=${color} interlace=${interlace}`;
  let pixels;
  try {
    pixels = inflateSync(Buffer.concat(idat));
  } catch (error) {
    return `IDAT does not inflate: ${error.message}`;
  }
  const expected = height * (1 + width * channels);
  return pixels.length === expected ? '' : `IDAT inflates to ${pixels.length} bytes, expected ${expected}`;
}

// ------------------------------------------------------------------------------------------------
// The two SDK generations behind one small interface

function makeSuite(binary, name) {
  const [generation, mode] = name.split(/-(.*)/s);
  const wire = new Wire();
  const logs = [];
  const clientErrors = [];
  const spawn = { command: binary, args: [], env: { ...process.env }, stderr: 'inherit' }; // default env is HOME/PATH/... only
  const info = { name: 'codeagent-interop-ts', version: '1.0.0' };
  let client;
  let transport;
  if (generation === 'v1') {
    client = new ClientV1(info);
    transport = new StdioV1(spawn);
    client.setNotificationHandler(LoggingMessageNotificationSchema, n => logs.push(n.params));
  } else {
    const negotiation = mode === 'legacy' || mode === 'auto' ? mode : { pin: mode };
    client = new ClientV2(info, { versionNegotiation: { mode: negotiation, probe: { timeoutMs: 10_000 } } });
    transport = new StdioV2(spawn);
    client.setNotificationHandler('notifications/message', n => logs.push(n.params));
  }
  client.onerror = error => clientErrors.push(error);
  tap(transport, wire);
  const v1 = generation === 'v1';
  return {
    name,
    mode,
    v1,
    modern: mode !== 'legacy',
    client,
    transport,
    wire,
    logs,
    clientErrors,
    callTool: (params, options = {}) => (v1 ? client.callTool(params, undefined, { timeout: REQUEST_TIMEOUT, ...options }) : client.callTool(params, { timeout: REQUEST_TIMEOUT, ...options })),
    async listAll() {
      if (!v1) return (await client.listTools()).tools; // v2 walks every page itself
      const tools = [];
      let cursor;
      let pages = 0;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && ++pages < 20);
      return tools;
    },
    // An abort or a timeout: v1 rejects with McpError -32001, v2 with SdkError REQUEST_TIMEOUT.
    isCancelError: error => (v1 ? error instanceof McpError && error.code === -32001 : error instanceof SdkError && error.code === 'REQUEST_TIMEOUT'),
    cancelErrorName: v1 ? 'McpError -32001' : 'SdkError REQUEST_TIMEOUT',
    isProtocolError: (error, code) => (v1 ? error instanceof McpError : error instanceof ProtocolError) && error.code === code,
    errorClass: v1 ? 'McpError' : 'ProtocolError',
  };
}

// ------------------------------------------------------------------------------------------------
// The check list, run once per suite

async function runSuite(binary, name) {
  prefix = `[${name}] `;
  const s = makeSuite(binary, name);
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`suite did not finish within ${SUITE_TIMEOUT / 1000} s`)), SUITE_TIMEOUT);
  });
  try {
    await Promise.race([
      (async () => {
        await s.client.connect(s.transport);
        await group('connect', () => connectChecks(s));
        await group('listing', () => listingChecks(s));
        await group('tools', () => toolChecks(s));
        await group('output schema', () => outputSchemaChecks(s));
        await group('progress and logging', () => progressChecks(s));
        await group('cancellation', () => cancellationChecks(s));
        await group('timeout', () => timeoutChecks(s));
        await group('invalid arguments', () => invalidArgumentChecks(s));
        await group('unknown tool', () => unknownToolChecks(s));
        await group('wire', () => wireChecks(s));
      })(),
      deadline,
    ]);
  } catch (error) {
    check("the suite's session runs to the end", false, `${error?.constructor?.name}: ${error?.message ?? error}`);
    console.log(error?.stack ?? error);
  } finally {
    clearTimeout(timer);
    await s.client.close().catch(() => {});
  }
}

/** `work`, or a rejection once SUITE_TIMEOUT has passed. */
async function withDeadline(work) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${SUITE_TIMEOUT / 1000} s`)), SUITE_TIMEOUT);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function connectChecks(s) {
  const { client, wire } = s;
  const methods = wire.sent().filter(m => 'method' in m).map(m => m.method);
  if (s.v1) {
    // v1 has no era API; the handshake is the only era it speaks.
  } else {
    eq('protocol era', client.getProtocolEra(), s.modern ? 'modern' : 'legacy');
    eq('negotiated protocol version', client.getNegotiatedProtocolVersion(), s.modern ? MODERN : LEGACY_VERSION);
  }
  if (s.modern) {
    const discover = client.getDiscoverResult();
    check('the era came from server/discover (probed on a sibling process)', discover?.supportedVersions?.includes(MODERN) && discover?.supportedVersions?.includes(LEGACY_VERSION), show(discover));
    check('server/discover result is cacheable (ttlMs, cacheScope)', Number.isInteger(discover?.ttlMs) && ['public', 'private'].includes(discover?.cacheScope), show(discover));
    check('the session process got neither initialize nor server/discover', !methods.includes('initialize') && !methods.includes('server/discover'), show(methods));
  } else {
    eq('handshake: initialize, then notifications/initialized', methods.slice(0, 2), ['initialize', 'notifications/initialized']);
    const init = wire.response(wire.requestId('initialize'))?.result;
    eq('negotiated protocol version (initialize result)', init?.protocolVersion, LEGACY_VERSION);
    check('no server/discover in the legacy era', !methods.includes('server/discover'), show(methods));
  }
  const version = client.getServerVersion();
  check("server info: name codeagent-gallery, title 'codeagent gallery', a version", version?.name === 'codeagent-gallery' && version?.title === 'codeagent gallery' && !!version?.version, show(version));
  const caps = client.getServerCapabilities();
  check('capabilities: tools and logging', !!caps?.tools && !!caps?.logging, show(caps));
  eq('instructions', client.getInstructions(), INSTRUCTIONS);
}

async function listingChecks(s) {
  const tools = await s.listAll();
  const listing = Object.fromEntries(tools.map(t => [t.name, t]));
  eq('tools/list names, in order', tools.map(t => t.name), TOOL_NAMES);
  for (const [name, [title, description, required, properties]] of Object.entries(LISTING)) {
    const tool = listing[name];
    if (!check(`${name}: listed`, !!tool)) continue;
    eq(`${name}: title`, tool.title, title);
    check(`${name}: description`, String(tool.description ?? '').startsWith(description), show(tool.description));
    const schema = tool.inputSchema ?? {};
    eq(`${name}: inputSchema type`, schema.type, 'object');
    eq(`${name}: inputSchema required`, [...(schema.required ?? [])].sort(), [...required].sort());
    eq(`${name}: inputSchema properties`, Object.keys(schema.properties ?? {}).sort(), Object.keys(properties).sort());
    for (const [prop, kind] of Object.entries(properties)) {
      const node = schema.properties?.[prop] ?? {};
      if (kind === null) eq(`${name}: \`${prop}\` is an enum of the regions`, enumOf(schema, node), REGIONS);
      else eq(`${name}: \`${prop}\` type`, resolve(schema, node).type, kind);
      check(`${name}: \`${prop}\` has a description`, !!node.description, show(node));
    }
    const wanted = WITH_OUTPUT_SCHEMA.has(name);
    eq(`${name}: outputSchema ${wanted ? 'present' : 'absent'}`, 'outputSchema' in tool && tool.outputSchema !== undefined, wanted);
  }
  for (const [name, annotations] of Object.entries(ANNOTATIONS)) eq(`${name}: annotations`, listing[name]?.annotations, annotations);
  const steps = listing.count_with_progress?.inputSchema?.properties?.steps ?? {};
  eq('count_with_progress: steps range 1..100', [steps.minimum, steps.maximum], [1, 100]);
  const stats = listing.region_stats?.outputSchema ?? {};
  eq('region_stats: outputSchema required', [...(stats.required ?? [])].sort(), ['region', 'revenue', 'units']);
  eq('region_stats: outputSchema region enum', enumOf(stats, stats.properties?.region), REGIONS);
  const rowsArg = listing.sales_history?.inputSchema?.properties?.rows ?? {};
  eq('sales_history: rows range 1..100000', [rowsArg.minimum, rowsArg.maximum], [1, 100000]);
  // Only JSON Schema's own formats are listed, and the gallery uses none: schemars' int64, uint32, double, ... are gone,
  // a narrow integer's format became bounds.
  const withFormats = Object.fromEntries(tools.map(t => [t.name, formatsIn({ inputSchema: t.inputSchema, outputSchema: t.outputSchema })]).filter(([, found]) => found.length));
  eq("no listed schema names a format (schemars' int64, uint32, double, ... are gone)", withFormats, {});
  const units = stats.properties?.units ?? {};
  eq('region_stats: outputSchema units (u32) is bounded 0..4294967295 instead of format uint32', [units.type, units.minimum, units.maximum, 'format' in units], ['integer', 0, 4294967295, false]);
  const addends = listing.add?.inputSchema?.properties ?? {};
  eq('add: a and b (i64) are plain integers: no format int64, no bounds', Object.fromEntries(Object.entries(addends).map(([prop, node]) => [prop, Object.keys(node).sort()])), { a: ['description', 'type'], b: ['description', 'type'] });

  const answer = s.wire.response(s.wire.requestId('tools/list'))?.result ?? {};
  const eraFields = Object.fromEntries(['resultType', 'ttlMs', 'cacheScope'].filter(k => k in answer).map(k => [k, answer[k]]));
  if (s.modern) {
    check('tools/list carries resultType, ttlMs and cacheScope (2026-07-28)', eraFields.resultType === 'complete' && Number.isInteger(eraFields.ttlMs) && ['public', 'private'].includes(eraFields.cacheScope), show(eraFields));
  } else {
    eq('tools/list carries no 2026-only fields in the legacy era', eraFields, {});
  }
}

async function toolChecks(s) {
  let r = await s.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  eq('add(2, 3): text', onlyText(r), '5');
  let [what, structured] = jsonTextStructured(5, s.modern);
  eq(`add(2, 3): isError false, ${what}`, [!!r.isError, r.structuredContent], [false, structured]);

  r = await s.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  eq('greet: text', onlyText(r), 'Hello, Ada!');
  eq('greet: isError false, no structuredContent', [!!r.isError, r.structuredContent], [false, undefined]);
  check('greet: the codeagent artifact rides in _meta', !!r._meta?.['dev.codeagent/artifact'], show(r._meta));

  r = await s.callTool({ name: 'sales_table', arguments: { region: 'north' } });
  let text = onlyText(r);
  check('sales_table(north): a Markdown table', typeof text === 'string' && text.startsWith(`${TABLE_HEADER}| north | kettle | 120 | 3600.0 |\n| north | toaster | 80 | 2000.0 |\n`), show(text));
  contains('sales_table(north): row count', text, '2 rows');
  eq('sales_table(north): no structuredContent (the rows travel in the artifact)', r.structuredContent, undefined);
  eq('sales_table(north): the artifact in _meta is a table', artifactOf(r).kind, 'table');
  eq("sales_table(north): the artifact's df", tableDf(r), { columns: TABLE_COLUMNS, rows: NORTH_ROWS });
  eq('sales_table(north): isError false', !!r.isError, false);
  r = await s.callTool({ name: 'sales_table', arguments: {} });
  eq('sales_table(): all six rows in the artifact', rows(r).map(row => row[0]), ['north', 'north', 'south', 'east', 'west', 'west']);
  eq("sales_table(): the artifact's columns", tableDf(r)?.columns, TABLE_COLUMNS);
  eq('sales_table(): no structuredContent', r.structuredContent, undefined);
  check('sales_table(): Markdown table of six rows', String(onlyText(r)).startsWith(TABLE_HEADER) && String(onlyText(r)).includes('6 rows'), show(onlyText(r)));

  r = await s.callTool({ name: 'sales_history', arguments: { rows: 1000 } });
  text = onlyText(r);
  check(
    'sales_history(1000): a Markdown table of the first 20 rows',
    typeof text === 'string' && text.startsWith(`${HISTORY_HEADER}| 1 | north | 40 | 1020.0 |\n`) && text.split('\n').filter(line => line.startsWith('| ')).length === 2 + 20,
    show(text),
  );
  check('sales_history(1000): says how many rows there are', String(text).endsWith('Showing 20 of 1000 rows.'), show(text));
  eq('sales_history(1000): no structuredContent', r.structuredContent, undefined);
  eq("sales_history(1000): the artifact's columns", tableDf(r)?.columns, HISTORY_COLUMNS);
  const history = rows(r);
  eq('sales_history(1000): every row in the artifact, first and last', [history.length, history.slice(0, 1), history.slice(-1)], [1000, [[1, 'north', 40, 1020]], [[250, 'west', 43, 1096.5]]]);
  eq('sales_history(1000): isError false', !!r.isError, false);

  r = await s.callTool({ name: 'revenue_chart', arguments: {} });
  const kinds = (r.content ?? []).map(b => b.type);
  if (eq('revenue_chart: an image block then a text block', kinds, ['image', 'text'])) {
    const [image, caption] = r.content;
    eq('revenue_chart: mimeType', image.mimeType, 'image/png');
    const base64ok = typeof image.data === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(image.data) && image.data.length % 4 === 0;
    const why = base64ok ? checkPng(Buffer.from(image.data, 'base64')) : 'not base64';
    check('revenue_chart: a valid 160x100 PNG', why === '', why);
    contains('revenue_chart: caption', caption.text, 'Revenue per region: north, south, east, west (left to right).');
    contains('revenue_chart: text describes the image', caption.text, '160×100');
  }
  eq('revenue_chart: isError false, no structuredContent', [!!r.isError, r.structuredContent], [false, undefined]);

  r = await s.callTool({ name: 'show_code', arguments: {} });
  text = onlyText(r);
  contains('show_code: names the file', text, 'src/add.rs');
  contains('show_code: fenced Rust code', text, CODE_FENCE);
  contains('show_code: output', text, 'add(2, 3) == 5');
  eq('show_code: isError false', !!r.isError, false);

  r = await s.callTool({ name: 'show_diff', arguments: {} });
  text = onlyText(r);
  check('show_diff: unified diff header', String(text).startsWith('--- a/src/add.rs\n+++ b/src/add.rs\n'), show(text));
  contains('show_diff: hunk', text, '@@ -1,3 +1,3 @@');
  contains('show_diff: removed line', text, '\n-fn sum(a: i64, b: i64) -> i64 {\n');
  contains('show_diff: added line', text, '\n+fn add(a: i64, b: i64) -> i64 {\n');
  eq('show_diff: isError false', !!r.isError, false);

  r = await s.callTool({ name: 'divide', arguments: { numerator: 1, denominator: 4 } });
  eq('divide(1, 4): text', onlyText(r), '0.25');
  eq('divide(1, 4): isError false', !!r.isError, false);
  [what, structured] = jsonTextStructured(0.25, s.modern);
  eq(`divide(1, 4): ${what}`, r.structuredContent, structured);
  r = await s.callTool({ name: 'divide', arguments: { numerator: 1, denominator: 0 } });
  eq('divide(1, 0): isError true', r.isError, true);
  contains('divide(1, 0): message', onlyText(r), 'cannot divide by zero');
  contains('divide(1, 0): detail', onlyText(r), 'pass a non-zero `denominator`');
  eq('divide(1, 0): no structuredContent', r.structuredContent, undefined);

  r = await s.callTool({ name: 'region_stats', arguments: { region: 'west' } });
  const expected = { region: 'west', units: 210, revenue: 5550 };
  eq('region_stats(west): structuredContent', r.structuredContent, expected);
  let asJson;
  try {
    asJson = JSON.parse(onlyText(r) ?? '');
  } catch {
    asJson = undefined;
  }
  eq('region_stats(west): text is the same JSON', asJson, expected);
  eq('region_stats(west): isError false', !!r.isError, false);

  r = await s.callTool({ name: 'slow', arguments: { seconds: 0.05 } });
  eq('slow(0.05): text', onlyText(r), 'Waited 0.05 seconds.');
}

async function outputSchemaChecks(s) {
  // callTool validates structuredContent against the listed outputSchema (and throws otherwise); make that
  // visible, and prove the validation is live by feeding the SDK's own validator something broken.
  const r = await s.callTool({ name: 'region_stats', arguments: { region: 'north' } });
  eq('region_stats(north): structuredContent (validated by the SDK)', r.structuredContent, { region: 'north', units: 200, revenue: 5600 });
  const broken = [
    ['a missing field', { region: 'north', units: 200 }],
    ['a region outside the enum', { region: 'middle', units: 200, revenue: 5600 }],
  ];
  if (s.v1) {
    const validator = s.client.getToolOutputValidator('region_stats');
    if (check('region_stats: the SDK compiled a validator from the listed outputSchema', typeof validator === 'function')) {
      eq("region_stats: the SDK's validator accepts the result", validator(r.structuredContent).valid, true);
      for (const [what, content] of broken) eq(`region_stats: the SDK's validator rejects ${what} (validation is live)`, validator(content).valid, false);
    }
    eq('sales_table: no validator, the listing has no outputSchema for it', s.client.getToolOutputValidator('sales_table'), undefined);
  } else {
    // v2 validates against options.toolDefinition when given: a stricter copy of the listed schema must make
    // the real result fail, with the SDK's own error.
    const tool = (await s.client.listTools()).tools.find(t => t.name === 'region_stats');
    const stricter = { ...tool, outputSchema: { ...tool.outputSchema, required: [...tool.outputSchema.required, 'median'] } };
    try {
      await s.callTool({ name: 'region_stats', arguments: { region: 'north' } }, { toolDefinition: stricter });
      check('region_stats: the SDK rejects a result its outputSchema forbids (validation is live)', false, 'no error');
    } catch (error) {
      check('region_stats: the SDK rejects a result its outputSchema forbids (validation is live)', error instanceof ProtocolError && error.code === -32602 && /does not match the tool's output schema/.test(error.message), `${error?.constructor?.name} ${error?.code} ${error?.message}`);
    }
    const again = await s.callTool({ name: 'region_stats', arguments: { region: 'north' } }, { toolDefinition: tool });
    eq("region_stats: the SDK's validation passes with the listed outputSchema", again.structuredContent?.units, 200);
  }
  // A table lists no outputSchema, so the SDK wants no structuredContent (it refuses a result without one otherwise).
  const table = await s.callTool({ name: 'sales_table', arguments: { region: 'west' } });
  eq('sales_table(west): accepted by the SDK without structuredContent, two rows in the artifact', [table.structuredContent, rows(table).length], [undefined, 2]);
}

async function progressChecks(s) {
  const { wire, logs, clientErrors } = s;
  if (!s.modern) await s.client.setLoggingLevel('debug'); // logging/setLevel: the legacy opt-in
  const meta = s.modern ? { [LOG_LEVEL_META_KEY]: 'debug' } : undefined; // modern: the opt-in is per request
  const calls = [];
  let mark = wire.mark();
  let logged = logs.length;
  const errorsBefore = clientErrors.length;
  const r = await s.callTool(
    { name: 'count_with_progress', arguments: { steps: 5 }, ...(meta ? { _meta: meta } : {}) },
    { onprogress: p => calls.push(p), resetTimeoutOnProgress: true },
  );
  const seenAtResult = [...calls];
  eq('count_with_progress(5): text', onlyText(r), 'Counted to 5.');

  const callId = wire.requestId('tools/call', mark, 'count_with_progress');
  const token = wire.sent(mark).find(m => m.id === callId)?.params?._meta?.progressToken;
  check('the request carried a progressToken', token !== undefined, show(wire.sent(mark)));
  const answered = wire.responsePosition(callId);
  const notes = wire.log.map(([d, m], position) => [position, d, m]).filter(([position, d, m]) => position >= mark && d === 'in' && m.method === 'notifications/progress');
  check(
    'wire: 5 progress notifications 1..5 of 5 with the request token, all before the response',
    answered !== undefined && deepEqual(notes.map(([, , m]) => [m.params.progressToken, m.params.progress, m.params.total]), [1, 2, 3, 4, 5].map(p => [token, p, 5])) && notes.every(([position]) => position < answered),
    show(notes.map(([, , m]) => m)),
  );
  const progress = seenAtResult.map(p => p.progress);
  check('onprogress: strictly increasing, all before the result', progress.length > 0 && progress.every((p, i) => i === 0 || p > progress[i - 1]), show(seenAtResult));
  eq('onprogress: total 5 and the step message on every call', seenAtResult.map(p => [p.total, p.message]), progress.map(p => [5, `step ${p} of 5`]));
  const late = clientErrors.slice(errorsBefore).filter(e => String(e?.message).includes(LATE_PROGRESS));
  if (progress.length === 5) {
    eq('onprogress: 5 callbacks (1..5)', progress, [1, 2, 3, 4, 5]);
  } else {
    // The known SDK race: the final notification shared a read with the response and was dropped client-side.
    const droppedTail = [1, 2, 3, 4, 5].slice(progress.length);
    check(
      `onprogress: 5 callbacks, or 1..${progress.length} with ${show(droppedTail)} dropped by the SDK (typescript-sdk#2580)`,
      progress.length >= 1 && deepEqual(progress, [1, 2, 3, 4, 5].slice(0, progress.length)) && late.length === droppedTail.length,
      `${show(progress)}; onerror: ${show(late.map(e => e.message))}`,
    );
    console.log(`note ${prefix}the SDK dropped progress ${show(droppedTail)}: it arrived on the wire before the response (typescript-sdk#2580)`);
  }
  const logNotes = wire.log.map(([d, m], position) => [position, d, m]).filter(([position, d, m]) => position >= mark && d === 'in' && m.method === 'notifications/message');
  check('wire: the log message arrives before the response', answered !== undefined && logNotes.length === 1 && logNotes[0][0] < answered, show(logNotes.map(([, , m]) => m)));
  for (let i = 0; i < 200 && !logs.slice(logged).some(p => p.data === 'counted to 5'); i++) await sleep(10);
  const got = logs.slice(logged).filter(p => p.data === 'counted to 5');
  check(`the log handler receives 'counted to 5' (${s.modern ? '_meta logLevel' : 'logging/setLevel debug'})`, got.length === 1 && got[0].level === 'info', show(logs.slice(logged)));

  // Without an opt-in (modern) or above the message's level (legacy), nothing is sent.
  mark = wire.mark();
  logged = logs.length;
  let quiet;
  if (s.modern) {
    quiet = await s.callTool({ name: 'count_with_progress', arguments: { steps: 1 } });
  } else {
    await s.client.setLoggingLevel('warning');
    quiet = await s.callTool({ name: 'count_with_progress', arguments: { steps: 1 } });
  }
  await sleep(100);
  eq('count_with_progress(1): text', onlyText(quiet), 'Counted to 1.');
  check(
    s.modern ? 'no log for a request without _meta logLevel (2026-07-28)' : 'no info log at level warning',
    !wire.received(mark).some(m => m.method === 'notifications/message') && logs.length === logged,
    show(logs.slice(logged)),
  );
  check('no progress notifications without a progressToken', !wire.received(mark).some(m => m.method === 'notifications/progress'), show(wire.received(mark)));
  if (s.modern) {
    mark = wire.mark();
    await s.callTool({ name: 'count_with_progress', arguments: { steps: 1 }, _meta: { [LOG_LEVEL_META_KEY]: 'warning' } });
    await sleep(100);
    check('no info log for a request at _meta logLevel warning', !wire.received(mark).some(m => m.method === 'notifications/message'), show(wire.received(mark)));
  } else {
    await s.client.setLoggingLevel('debug');
  }
}

async function cancelAfter(s, args, ms) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('interop: cancelled by the test'), ms);
  const started = performance.now();
  let outcome;
  try {
    const result = await s.callTool({ name: 'slow', arguments: args }, { signal: controller.signal });
    outcome = { result };
  } catch (error) {
    outcome = { error };
  } finally {
    clearTimeout(timer);
  }
  return { ...outcome, elapsed: performance.now() - started };
}

async function cancellationChecks(s) {
  const { wire } = s;
  let mark = wire.mark();
  const { error, elapsed } = await cancelAfter(s, { seconds: 30 }, 300);
  check(`slow(30) aborted after 0.3 s rejects with ${s.cancelErrorName}`, s.isCancelError(error), `${error?.constructor?.name} ${error?.code} ${error?.message}`);
  check('the aborted call returns promptly', elapsed < 3000, `${Math.round(elapsed)} ms`);
  const slowId = wire.requestId('tools/call', mark, 'slow');
  const cancels = wire.sent(mark).filter(m => m.method === 'notifications/cancelled');
  check('notifications/cancelled names the request', slowId !== undefined && deepEqual(cancels.map(m => m.params?.requestId), [slowId]), show(cancels));
  if (s.modern) check('the cancel notification carries the 2026-07-28 envelope', cancels[0]?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === MODERN, show(cancels));
  const r = await s.callTool({ name: 'add', arguments: { a: 40, b: 2 } });
  eq('a follow-up call succeeds', onlyText(r), '42');
  await sleep(300);
  eq('the server sent no response for the cancelled request', wire.response(slowId), undefined);

  // A cancelled call the server would have finished soon: its answer must never come.
  mark = wire.mark();
  await cancelAfter(s, { seconds: 1.5 }, 200);
  const shortId = wire.requestId('tools/call', mark, 'slow');
  await sleep(2000);
  check('slow(1.5) aborted after 0.2 s: no response even after it would have finished', shortId !== undefined && wire.response(shortId) === undefined, show(wire.response(shortId)));
  // Two cancelled in a row, then one that completes: the connection keeps serving.
  await cancelAfter(s, { seconds: 20 }, 100);
  await cancelAfter(s, { seconds: 25 }, 100);
  const done = await s.callTool({ name: 'slow', arguments: { seconds: 0.01 } });
  eq('after more cancellations, slow(0.01) completes', onlyText(done), 'Waited 0.01 seconds.');
}

async function timeoutChecks(s) {
  const { wire } = s;
  const mark = wire.mark();
  const started = performance.now();
  try {
    await s.callTool({ name: 'slow', arguments: { seconds: 30 } }, { timeout: 300 });
    check('slow(30) with a 0.3 s timeout rejects', false, 'it returned');
  } catch (error) {
    check(`slow(30) with a 0.3 s timeout: ${s.cancelErrorName}`, s.isCancelError(error), `${error?.constructor?.name} ${error?.code} ${error?.message}`);
  }
  check('the timed-out call returns promptly', performance.now() - started < 3000);
  const slowId = wire.requestId('tools/call', mark, 'slow');
  const cancels = wire.sent(mark).filter(m => m.method === 'notifications/cancelled');
  check('the SDK cancelled the timed-out request', deepEqual(cancels.map(m => m.params?.requestId), [slowId]), show(cancels));
  const r = await s.callTool({ name: 'greet', arguments: { name: 'again' } });
  eq('a call after the timeout succeeds', onlyText(r), 'Hello, again!');
  await sleep(200);
  eq('the server sent no response for the timed-out request', wire.response(slowId), undefined);
}

async function invalidArgumentChecks(s) {
  const cases = [
    ['add with b = "x"', 'add', { a: 1, b: 'x' }, ['`b`', 'invalid type']],
    ['add without b', 'add', { a: 1 }, ['missing field `b`']],
    ['sales_table with an unknown region', 'sales_table', { region: 'middle' }, ['`region`', 'middle']],
    ['count_with_progress below the minimum', 'count_with_progress', { steps: 0 }, ['`steps`', 'minimum']],
    ['sales_history above the maximum', 'sales_history', { rows: 100001 }, ['`rows`', 'maximum']],
  ];
  for (const [label, name, args, needles] of cases) {
    const r = await s.callTool({ name, arguments: args });
    eq(`${label}: isError true`, r.isError, true);
    const text = onlyText(r);
    for (const needle of needles) contains(`${label}: message names ${needle}`, text, needle);
    contains(`${label}: message names the tool`, text, `tool ${name}`);
  }
  // Undeclared arguments (a misspelt one, or one a host adds, as Gemini CLI's wait_for_previous) are dropped, not refused.
  let r = await s.callTool({ name: 'add', arguments: { a: 1, b: 2, c: 3, wait_for_previous: true } });
  eq('add with undeclared arguments (c, wait_for_previous): dropped, the call succeeds', [!!r.isError, onlyText(r)], [false, '3']);
  r = await s.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
  eq('after invalid arguments, add(2, 2) works', onlyText(r), '4');
}

async function unknownToolChecks(s) {
  try {
    const r = await s.callTool({ name: 'nope', arguments: {} });
    check(`unknown tool rejects with ${s.errorClass}`, false, `got a result: ${show(r)}`);
  } catch (error) {
    check(`unknown tool: ${s.errorClass} code -32602`, s.isProtocolError(error, -32602), `${error?.constructor?.name} ${error?.code} ${error?.message}`);
    // v1 prefixes "MCP error -32602: "; v2 keeps the server's message as is.
    eq('unknown tool: message', String(error?.message).replace(/^MCP error -?\d+: /, ''), 'Unknown tool: nope');
  }
  const r = await s.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
  eq('after an unknown tool, add(1, 1) works', onlyText(r), '2');
}

async function wireChecks(s) {
  const { wire, clientErrors } = s;
  const responses = wire.received().filter(m => !('method' in m));
  eq('every error response is the unknown tool\'s', responses.filter(m => 'error' in m).map(m => m.error.message), ['Unknown tool: nope']);
  const ids = responses.map(m => JSON.stringify(m.id));
  check('no request id was answered twice', new Set(ids).size === ids.length, show(ids));
  const results = responses.filter(m => 'result' in m).map(m => m.result);
  const tables = results.filter(r => r._meta?.[ARTIFACT_KEY]?.kind === 'table');
  check(
    "every table result carries its rows in the artifact's df, none a structuredContent",
    tables.length >= 3 && tables.every(r => !('structuredContent' in r) && Array.isArray(r._meta[ARTIFACT_KEY].payload?.df?.rows)),
    show(tables.filter(r => 'structuredContent' in r)).slice(0, 500),
  );
  if (s.modern) {
    check('every result carries resultType complete (2026-07-28)', results.every(r => r.resultType === 'complete'), show(results.filter(r => r.resultType !== 'complete')).slice(0, 500));
    const requests = wire.sent().filter(m => 'id' in m);
    check('every request carried the 2026-07-28 _meta envelope', requests.every(m => m.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === MODERN), show(requests.slice(0, 1)));
  } else {
    check('no result carries resultType in the legacy era', results.every(r => !('resultType' in r)), show(results.filter(r => 'resultType' in r)).slice(0, 500));
  }
  const stray = wire.received().filter(m => 'method' in m && !['notifications/progress', 'notifications/message'].includes(m.method));
  eq('no unexpected notifications or requests from the server', stray, []);
  const unexpected = clientErrors.filter(e => !String(e?.message).includes(LATE_PROGRESS));
  eq('no unexpected client errors (onerror)', unexpected.map(e => String(e?.message ?? e)), []);
}

// ------------------------------------------------------------------------------------------------
// The tools that ask: the SDKs' own request handlers answer delete_region and summarize_sales, over
// stdio and over HTTP. Legacy: real server-to-client requests, answered by the client's JSON-RPC
// response. 2026-07-28: an input_required result, which client v2 fulfils itself (inputRequired.autoFulfill)
// through the same handlers, retrying with inputResponses and the echoed requestState.

// The region each suite's asking checks delete: over HTTP every suite shares one gallery process, so each
// deletes its own; the client without capabilities runs first, while the region still has records.
const ASKING_REGIONS = { 'v1-legacy': 'north', 'v2-legacy': 'south', [`v2-${MODERN}`]: 'east', 'v2-auto': 'west' };
const RECORDS = { north: 2, south: 1, east: 1, west: 2 };
const SAMPLING_MODEL = 'interop-ts-model';
const SAMPLING_TEXT = "Sales are steady; the region's best seller leads on revenue.";
const SYSTEM_PROMPT = 'You summarise sales tables in one plain sentence, with the numbers that matter.';
const CONFIRM_SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean', description: 'Delete the records?' } }, required: ['confirm'] };
const NO_ELICITATION = 'the client cannot be asked `elicitation/create`: it did not declare the `elicitation` capability';
const CANNOT_SAMPLE = 'This client cannot sample, so here is the table:\n\n';

const recordsText = region => (RECORDS[region] === 1 ? '1 sales record' : `${RECORDS[region]} sales records`);
const elicitationParams = region => ({ mode: 'form', message: `Delete ${recordsText(region)} of ${region}? This cannot be undone.`, requestedSchema: CONFIRM_SCHEMA });
const samplingParams = table => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Summarise this table:\n\n${table}` } }],
  systemPrompt: SYSTEM_PROMPT,
  modelPreferences: { costPriority: 0.6, speedPriority: 0.8 },
  maxTokens: 120,
});
const samplingAnswer = { role: 'assistant', content: { type: 'text', text: SAMPLING_TEXT }, model: SAMPLING_MODEL };

/** The gallery serving `--http 127.0.0.1:PORT`, shared by every suite's HTTP connections. */
async function startHttpGallery(binary) {
  const port = await new Promise((resolve, reject) => {
    const probe = tcpServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const child = spawnProcess(binary, ['--http', `127.0.0.1:${port}`], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env } });
  let exited = null;
  child.once('exit', code => {
    exited = code ?? 'a signal';
  });
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && exited === null; ) {
    const up = await new Promise(resolve => {
      const socket = tcpConnect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
    await sleep(50);
  }
  child.kill();
  throw new Error(`the gallery did not listen on 127.0.0.1:${port} (exit: ${exited})`);
}

/** A client of `suite` over stdio (`url` undefined) or HTTP, with the elicitation and sampling handlers when `capable`. */
// The regions deleted so far in the shared HTTP gallery (every stdio connection has a process of its own).
const deletedOverHttp = new Set();

function makeAskingClient(binary, suite, url, capable) {
  const [generation, mode] = suite.split(/-(.*)/s);
  const v1 = generation === 'v1';
  const wire = new Wire();
  const asked = [];
  const answers = [];
  const clientErrors = [];
  const info = { name: 'codeagent-interop-ts', version: '1.0.0' };
  const capabilities = capable ? { elicitation: v1 ? {} : { form: {} }, sampling: {} } : {};
  const spawn = { command: binary, args: [], env: { ...process.env }, stderr: 'inherit' };
  let client;
  let transport;
  const onElicit = request => {
    asked.push(['elicitation/create', JSON.parse(JSON.stringify(request.params))]);
    return answers.length ? answers.shift() : { action: 'cancel' };
  };
  const onSample = request => {
    asked.push(['sampling/createMessage', JSON.parse(JSON.stringify(request.params))]);
    return samplingAnswer;
  };
  if (v1) {
    client = new ClientV1(info, { capabilities });
    transport = url ? new HttpV1(new URL(url)) : new StdioV1(spawn);
    if (capable) {
      client.setRequestHandler(ElicitRequestSchema, async request => onElicit(request));
      client.setRequestHandler(CreateMessageRequestSchema, async request => onSample(request));
    }
  } else {
    const negotiation = mode === 'legacy' || mode === 'auto' ? mode : { pin: mode };
    client = new ClientV2(info, { capabilities, versionNegotiation: { mode: negotiation, probe: { timeoutMs: 10_000 } }, inputRequired: { autoFulfill: true } });
    transport = url ? new HttpV2(new URL(url)) : new StdioV2(spawn);
    if (capable) {
      client.setRequestHandler('elicitation/create', async request => onElicit(request));
      client.setRequestHandler('sampling/createMessage', async request => onSample(request));
    }
  }
  client.onerror = error => clientErrors.push(error);
  tap(transport, wire);
  return {
    v1,
    modern: mode !== 'legacy',
    client,
    transport,
    wire,
    deleted: url ? deletedOverHttp : new Set(),
    asked,
    answers,
    clientErrors,
    callTool: params => (v1 ? client.callTool(params, undefined, { timeout: REQUEST_TIMEOUT }) : client.callTool(params, { timeout: REQUEST_TIMEOUT })),
  };
}

async function runAsking(binary, suite, where, url) {
  prefix = `[${suite} ${where}] `;
  const region = ASKING_REGIONS[suite];
  for (const capable of [false, true]) {
    const a = makeAskingClient(binary, suite, url, capable);
    try {
      await a.client.connect(a.transport);
      if (capable) await group('asking', () => capableChecks(a, region));
      else await group('asking without capabilities', () => incapableChecks(a, region));
      const unexpected = a.clientErrors.filter(e => !String(e?.message).includes(LATE_PROGRESS));
      eq(`${capable ? '' : 'no capabilities: '}no unexpected client errors (onerror)`, unexpected.map(e => String(e?.message ?? e)), []);
    } finally {
      await a.client.close().catch(() => {});
    }
  }
}

const serverRequests = (wire, since = 0) => wire.received(since).filter(m => 'method' in m && 'id' in m);
const inputRequired = (wire, since = 0) => wire.received(since).filter(m => !('method' in m) && m.result?.resultType === 'input_required');

/** The elicitation and sampling capabilities the client declared: at initialize (legacy) or per request. */
function declared(a) {
  const capabilities = a.modern
    ? a.wire.sent().find(m => m.method === 'tools/call')?.params?._meta?.['io.modelcontextprotocol/clientCapabilities']
    : a.wire.sent().find(m => m.method === 'initialize')?.params?.capabilities;
  if (!capabilities) return { 'no capabilities sent': true };
  return Object.fromEntries(Object.entries(capabilities).filter(([k]) => k === 'elicitation' || k === 'sampling'));
}

async function incapableChecks(a, region) {
  let r = await a.callTool({ name: 'sales_table', arguments: { region } });
  const table = onlyText(r) ?? '';
  eq(`no capabilities: sales_table(${region}) has its ${RECORDS[region]} records`, rows(r).length, RECORDS[region]);
  eq('no capabilities: the client declares neither elicitation nor sampling', declared(a), {});
  const mark = a.wire.mark();
  r = await a.callTool({ name: 'delete_region', arguments: { region } });
  eq(`no capabilities: delete_region(${region}) is an error result`, r.isError, true);
  eq(`no capabilities: delete_region(${region}) names the capability`, onlyText(r), NO_ELICITATION);
  r = await a.callTool({ name: 'summarize_sales', arguments: { region } });
  eq(`no capabilities: summarize_sales(${region}) is no error`, !!r.isError, false);
  eq(`no capabilities: summarize_sales(${region}) falls back to the table`, onlyText(r), CANNOT_SAMPLE + table);
  eq('no capabilities: the server asked nothing (no request to the client)', serverRequests(a.wire, mark), []);
  eq('no capabilities: no input_required result', inputRequired(a.wire, mark), []);
  r = await a.callTool({ name: 'sales_table', arguments: { region } });
  eq(`no capabilities: sales_table(${region}) still has its records`, onlyText(r), table);
}

async function capableChecks(a, region) {
  const { wire, asked, answers } = a;
  const question = elicitationParams(region);
  let r = await a.callTool({ name: 'sales_table', arguments: { region } });
  const table = onlyText(r) ?? '';
  eq(`sales_table(${region}) has its ${RECORDS[region]} records`, rows(r).length, RECORDS[region]);
  eq('the client declares elicitation and sampling', Object.keys(declared(a)).sort(), ['elicitation', 'sampling']);

  const outcomes = [
    ['decline', { action: 'decline' }, 'Nothing was deleted: you said no.'],
    ['cancel', { action: 'cancel' }, 'Nothing was deleted: the question was dismissed.'],
    ['accept confirm=false', { action: 'accept', content: { confirm: false } }, 'Nothing was deleted: you said no.'],
  ];
  for (const [label, answer, expected] of outcomes) {
    const mark = wire.mark();
    const before = asked.length;
    answers.splice(0, answers.length, answer);
    r = await a.callTool({ name: 'delete_region', arguments: { region } });
    eq(`delete_region(${region}), ${label}: text`, onlyText(r), expected);
    eq(`delete_region(${region}), ${label}: isError false`, !!r.isError, false);
    eq(`delete_region(${region}), ${label}: the handler got the form`, asked.slice(before), [['elicitation/create', question]]);
    exchangeChecks(a, `delete_region(${region}), ${label}`, mark, 'elicitation/create', 'elicitation-1', question, answer);
    r = await a.callTool({ name: 'sales_table', arguments: { region } });
    eq(`after ${label}: sales_table(${region}) still has its records`, onlyText(r), table);
  }

  let mark = wire.mark();
  let before = asked.length;
  r = await a.callTool({ name: 'summarize_sales', arguments: { region } });
  eq(`summarize_sales(${region}): the model's text and name`, onlyText(r), `${SAMPLING_TEXT}\n\n(summary by ${SAMPLING_MODEL})`);
  contains(`summarize_sales(${region}): names the handler's model`, onlyText(r), SAMPLING_MODEL);
  eq(`summarize_sales(${region}): isError false`, !!r.isError, false);
  eq(`summarize_sales(${region}): the handler got the messages, maxTokens, systemPrompt, modelPreferences`, asked.slice(before), [['sampling/createMessage', samplingParams(table)]]);
  exchangeChecks(a, `summarize_sales(${region})`, mark, 'sampling/createMessage', 'sampling-1', samplingParams(table), samplingAnswer);

  // Accept last: the records are gone for the rest of the process.
  mark = wire.mark();
  before = asked.length;
  const accept = { action: 'accept', content: { confirm: true } };
  answers.splice(0, answers.length, accept);
  r = await a.callTool({ name: 'delete_region', arguments: { region } });
  eq(`delete_region(${region}), accept confirm=true: text`, onlyText(r), `Deleted ${recordsText(region)} of ${region}.`);
  eq(`delete_region(${region}), accept confirm=true: isError false`, !!r.isError, false);
  eq(`delete_region(${region}), accept confirm=true: the handler got the form`, asked.slice(before), [['elicitation/create', question]]);
  exchangeChecks(a, `delete_region(${region}), accept confirm=true`, mark, 'elicitation/create', 'elicitation-1', question, accept);
  r = await a.callTool({ name: 'sales_table', arguments: {} });
  a.deleted.add(region);
  const left = ['north', 'north', 'south', 'east', 'west', 'west'].filter(name => !a.deleted.has(name));
  eq(`after the delete: sales_table() lists no ${region} record${a.deleted.size > 1 ? ` (nor those deleted before in this process: ${[...a.deleted].filter(name => name !== region).join(', ')})` : ''}`, rows(r).map(row => row[0]), left);
  r = await a.callTool({ name: 'sales_table', arguments: { region } });
  eq(`after the delete: sales_table(${region}) has no rows`, [tableDf(r)?.rows, r.structuredContent], [[], undefined]);
  r = await a.callTool({ name: 'region_stats', arguments: { region } });
  eq(`after the delete: region_stats(${region}) counts nothing`, r.structuredContent, { region, units: 0, revenue: 0 });
  before = asked.length;
  r = await a.callTool({ name: 'delete_region', arguments: { region } });
  eq(`delete_region(${region}) again: nothing to delete`, onlyText(r), `${region} has no records to delete.`);
  eq(`delete_region(${region}) again: nobody is asked`, asked.slice(before), []);
  if (a.modern) eq('2026-07-28: the server sent no request to the client', serverRequests(wire), []);
}

/**
 * One question on the wire. Legacy: the server's request inside the call, the client's response to its id.
 * 2026-07-28: the call answers input_required; the retry carries inputResponses and the same requestState.
 */
function exchangeChecks(a, label, mark, method, key, params, answered) {
  const { wire } = a;
  const calls = wire.sent(mark).filter(m => m.method === 'tools/call');
  if (!a.modern) {
    const requests = serverRequests(wire, mark);
    eq(`${label}: wire: one ${method} request from the server`, requests.map(m => [m.method, m.params]), [[method, params]]);
    if (!requests.length || !calls.length) return;
    const askId = requests[0].id;
    eq(`${label}: wire: the client's response to its id`, wire.sent(mark).filter(m => !('method' in m) && m.id === askId).map(m => m.result), [answered]);
    const askedAt = wire.log.findIndex(([d, m], position) => position >= mark && d === 'in' && m.id === askId);
    const answeredAt = wire.responsePosition(calls[0].id);
    check(`${label}: wire: asked while the call runs, then the call's result`, calls.length === 1 && answeredAt !== undefined && askedAt < answeredAt, show(calls));
    return;
  }
  eq(`${label}: wire: no request from the server`, serverRequests(wire, mark), []);
  eq(`${label}: wire: the call, then its retry`, calls.length, 2);
  if (calls.length !== 2) return;
  const result = wire.response(calls[0].id)?.result ?? {};
  eq(`${label}: wire: the first answer is input_required`, result.resultType, 'input_required');
  eq(`${label}: wire: inputRequests keyed ${key}`, result.inputRequests, { [key]: { method, params } });
  const state = result.requestState;
  check(`${label}: wire: a requestState`, typeof state === 'string' && state.length > 20, show(state));
  const retry = calls[1].params ?? {};
  eq(`${label}: wire: the retry carries inputResponses`, retry.inputResponses, { [key]: answered });
  eq(`${label}: wire: the retry echoes the requestState`, retry.requestState, state);
  eq(`${label}: wire: the retry names the same tool and arguments`, [retry.name, retry.arguments], [calls[0].params?.name, calls[0].params?.arguments]);
  eq(`${label}: wire: the retry's answer is complete`, wire.response(calls[1].id)?.result?.resultType, 'complete');
}

// ------------------------------------------------------------------------------------------------

const SUITES = ['v1-legacy', 'v2-legacy', `v2-${MODERN}`, 'v2-auto'];

async function main() {
  const [binary, ...requested] = process.argv.slice(2);
  if (!binary) {
    console.error(`usage: node gallery.test.mjs PATH/TO/gallery [${SUITES.join('|')} ...]`);
    process.exit(2);
  }
  const version = pkg => JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
  console.log(`typescript clients: @modelcontextprotocol/sdk ${version('@modelcontextprotocol/sdk')}, @modelcontextprotocol/client ${version('@modelcontextprotocol/client')}; node ${process.version}`);
  console.log(`server: ${binary}`);
  const suites = requested.length ? requested : SUITES;
  const http = await startHttpGallery(binary);
  console.log(`server over HTTP: ${http.url}`);
  try {
    for (const name of suites) {
      if (!SUITES.includes(name)) {
        prefix = '';
        check(`known suite ${name}`, false, `choose from ${SUITES.join(', ')}`);
        continue;
      }
      const started = performance.now();
      await runSuite(binary, name);
      for (const [where, url] of [['stdio', undefined], ['http', http.url]]) {
        try {
          await withDeadline(runAsking(binary, name, where, url));
        } catch (error) {
          prefix = `[${name} ${where}] `;
          check("the suite's session runs to the end", false, `${error?.constructor?.name}: ${error?.message ?? error}`);
          console.log(error?.stack ?? error);
        }
      }
      console.log(`[${name}] done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    http.stop();
  }
  prefix = '';
  if (failures.length) console.log(`\nfailed checks:\n  ${failures.join('\n  ')}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed || !passed ? 1 : 0;
}

await main();

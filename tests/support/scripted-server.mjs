// Scripted model server for tests (no real LLM is reachable). It speaks every provider's wire format
// (see wire-formats.mjs): OpenAI, Azure OpenAI, Anthropic, Gemini, Ollama, and the Workers AI REST route
// that tests/support/workers-ai-binding.mjs calls to stand in for `env.AI`; and the rerank services'
// (rerank-wire.mjs): Cohere's /v2/rerank, Jina's and Voyage's /v1/rerank.
//
// In-process:
//   const server = await startScriptedServer({ port: 0 });
//   server.script({ kind: "chat", match: ["Extract"], reply: { facts: [] } });
//   ... point the client at server.baseUrl (OpenAI), server.url + "/v1" (Anthropic), … ...
//   await server.close();
//
// Out-of-process (e.g. browser tests):
//   node tests/support/scripted-server.mjs --port 8787
//   -> prints exactly one line "listening http://127.0.0.1:8787" and serves until killed.
//   Control endpoints: POST /__script (rule or array), POST /__reset, GET /__requests[?kind=chat].
//
// Every request is checked the way the real API checks it (path, auth headers, body fields); one the real
// API would refuse gets that API's 4xx error and an `invalid` reason in its log entry. Replies and errors
// come in the wire's own shape.
//
// Rules are checked in the order they were added; the first matching rule with `times` left wins:
//   kind     "chat" | "embedding" | "concept" (words that embed alike) | "rerank"
//   match    substring(s) of the prompt text (chat: system + user, whatever the format), of one input, or
//            of the rerank query
//   wire     only requests in this format ("openai", "azure", "anthropic", "gemini", "ollama", "workers-ai")
//   has      dotted body path(s) the request must send, e.g. "response_format", "generationConfig.responseSchema"
//   reply    chat content (objects are JSON-stringified); for Anthropic requests that force a tool, a JSON
//            object comes back as that tool's `tool_use` block unless `toolUse: false`. In-process only, it may
//            be a function ({system, user, text, body, wire}) => content, called for each matching request
//   scores   rerank: one relevance per document, or ({query, documents}) => scores (in-process only)
//   vector   embedding override; status/message (an error in the wire's shape), headers, body (sent
//            verbatim: malformed replies), drop (close the socket), delayMs, times
// Log entries: {kind, wire, method, path, query?, headers, body, time, status, reply (the body sent),
//   system/user/text (chat), inputs (embeddings), query/documents (rerank), invalid?, unmatched?, dropped?}.
// Only Node built-ins; binds 127.0.0.1 only.

import http from "node:http";
import { pathToFileURL } from "node:url";
import { route, WIRES, openai } from "./wire-formats.mjs";
import { cohere, jina, voyage, rerankRoute, overlap } from "./rerank-wire.mjs";

/** Every wire a rule or a log filter may name: the models' and the rerank services'. */
const ALL_WIRES = { ...WIRES, [cohere.name]: cohere, [jina.name]: jina, [voyage.name]: voyage };

const HOST = "127.0.0.1";
const DEFAULT_DIM = 64;
const STOP_WORDS = new Set("a an the is are was were to of and or in on at for with my i me user user's s".split(" "));
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": [
    "*, authorization, content-type, api-key, x-api-key, x-goog-api-key",
    "anthropic-version, anthropic-dangerous-direct-browser-access",
  ].join(", "),
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
};

// ---------------------------------------------------------------- embeddings

/** FNV-1a 32-bit hash of an ASCII token (tokens are [a-z0-9] only). */
export function fnv1a32(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Lowercase, split on non-[a-z0-9], drop empties and stop words. */
export function tokenize(text) {
  return String(text)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== "" && !STOP_WORDS.has(t));
}

/**
 * Deterministic bag-of-hashed-tokens embedding, L2-normalised.
 * `concepts` maps a token to its canonical token (see concept rules).
 */
export function defaultEmbedding(text, dim = DEFAULT_DIM, concepts = new Map()) {
  const v = new Array(dim).fill(0);
  for (const raw of tokenize(text)) {
    const tok = concepts.get(raw) ?? raw;
    const h = fnv1a32(tok);
    v[h % dim] += (h >>> 16) & 1 ? -1 : 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  if (norm === 0) {
    // No tokens (or they cancelled out): fixed unit vector e_0.
    v.fill(0);
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}

// ---------------------------------------------------------------- helpers

const asList = (m) => (m === undefined ? [] : Array.isArray(m) ? m : [m]);
const matches = (rule, text) => asList(rule.match).every((s) => text.includes(String(s)));
/** The value at a dotted `path` of `body`. */
const at = (body, path) =>
  String(path)
    .split(".")
    .reduce((v, key) => (v == null ? undefined : v[key]), body);
/** A rule with `has` applies only to requests whose body has every dotted path it lists. */
const hasAll = (rule, body) => asList(rule.has).every((path) => at(body, path) !== undefined);
const isFailure = (rule) => rule.drop || rule.body !== undefined || (rule.status ?? 200) >= 400;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An error body in `wire`'s format (OpenAI's by default). */
function errorBody(status, message = "scripted error", wire = openai) {
  return JSON.stringify(wire.errorBody(status, message));
}

function validateRule(rule) {
  if (!rule || typeof rule !== "object") throw new Error("scripted-server: rule must be an object");
  if (!["chat", "embedding", "concept", "rerank"].includes(rule.kind))
    throw new Error(`scripted-server: unknown rule kind ${JSON.stringify(rule.kind)}`);
  if (rule.kind === "concept" && (!Array.isArray(rule.words) || rule.words.length === 0))
    throw new Error("scripted-server: concept rule needs a non-empty `words` array");
  if (rule.wire !== undefined && !(rule.wire in ALL_WIRES))
    throw new Error(
      `scripted-server: unknown wire ${JSON.stringify(rule.wire)} (one of ${Object.keys(ALL_WIRES).join(", ")})`,
    );
}

// ---------------------------------------------------------------- server

/**
 * Start the scripted server. Options: { port = 0 }. Resolves to a handle:
 * { url, baseUrl, port, script(rule|rules), reset(), requests(filter?), count(kind), close() }.
 */
export async function startScriptedServer({ port = 0 } = {}) {
  let rules = []; // { ...rule, used: number }
  let log = [];
  let chatCounter = 0;
  const timers = new Set();

  const delay = (ms) =>
    ms > 0
      ? new Promise((resolve) => {
          const t = setTimeout(() => (timers.delete(t), resolve()), ms);
          timers.add(t);
        })
      : Promise.resolve();

  /** First rule of `kind` (for `wire`) with uses left that satisfies `pred`. */
  const findRule = (kind, wire, pred) =>
    rules.find(
      (r) =>
        r.kind === kind &&
        (r.wire === undefined || r.wire === wire.name) &&
        (r.times === undefined || r.used < r.times) &&
        pred(r),
    );

  const conceptMap = () => {
    const map = new Map();
    for (const r of rules.filter((r) => r.kind === "concept")) {
      const words = r.words.map((w) => String(w).toLowerCase());
      for (const w of words) if (!map.has(w)) map.set(w, words[0]);
    }
    return map;
  };

  const handle = {
    script(rule) {
      for (const r of asList(rule)) {
        validateRule(r);
        rules.push({ ...r, used: 0 });
      }
      return handle;
    },
    reset() {
      rules = [];
      log = [];
      return handle;
    },
    /** filter: "chat" | "embedding" | "other" (by kind), a wire name such as "anthropic", or "/path". */
    requests(filter) {
      if (filter === undefined) return log.slice();
      const key = String(filter).startsWith("/") ? "path" : filter in ALL_WIRES ? "wire" : "kind";
      return log.filter((e) => e[key] === filter);
    },
    count(kind) {
      return handle.requests(kind).length;
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // don't hang on keep-alive sockets
      });
    },
  };

  /** Send a response (always with CORS headers) and record its status in the log entry. */
  function send(res, entry, status, body, extraHeaders = {}, contentType = "application/json") {
    if (entry) Object.assign(entry, { status, reply: body });
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { ...CORS_HEADERS, "Content-Type": contentType, ...extraHeaders });
    res.end(body);
  }

  /** Apply a rule's delay/drop/status/body/headers; `okBody()` builds the normal reply (an object, or
   * `{ndjson: [...]}` for a streamed one) in `wire`'s format. */
  async function reply(req, res, entry, rule, wire, okBody) {
    await delay(rule?.delayMs ?? 0);
    if (rule?.drop) {
      entry.status = null;
      entry.dropped = true;
      req.socket.destroy();
      return;
    }
    const status = rule?.status ?? 200;
    if (rule?.body !== undefined) return send(res, entry, status, String(rule.body), rule?.headers ?? {});
    if (status >= 400) {
      const body = errorBody(status, rule?.message ?? "scripted error", wire);
      return send(res, entry, status, body, rule?.headers ?? {});
    }
    const out = okBody();
    if (out?.ndjson) {
      const lines = out.ndjson.map((line) => JSON.stringify(line) + "\n").join("");
      return send(res, entry, status, lines, rule?.headers ?? {}, "application/x-ndjson");
    }
    send(res, entry, status, JSON.stringify(out), rule?.headers ?? {});
  }

  async function handleChat(req, res, entry, body, wire, params) {
    const { system, user } = wire.chatText(body);
    const text = [system, user].filter((t) => t !== "").join("\n");
    Object.assign(entry, { system, user, text });
    const rule = findRule("chat", wire, (r) => matches(r, text) && hasAll(r, body));
    if (rule) rule.used++;
    else entry.unmatched = true;
    const replied = typeof rule?.reply === "function" ? rule.reply({ system, user, text, body, wire: wire.name }) : rule?.reply;
    const content =
      rule === undefined
        ? JSON.stringify({ facts: [], memory: [] })
        : typeof replied === "string"
          ? replied
          : JSON.stringify(replied ?? "");
    await reply(req, res, entry, rule, wire, () =>
      wire.chatReply({ body, content, prompt: text, counter: ++chatCounter, params, rule }),
    );
  }

  async function handleEmbeddings(req, res, entry, body, wire, params) {
    const { inputs, error } = wire.inputs(body);
    if (error) return send(res, entry, 400, errorBody(400, error, wire));
    entry.inputs = inputs;
    const dim = wire.dimensions(body, params) ?? DEFAULT_DIM;
    if (!Number.isInteger(dim) || dim <= 0)
      return send(res, entry, 400, errorBody(400, "`dimensions` must be a positive integer", wire));

    // One matching rule per input; a rule counts one use per request it applies to.
    const perInput = inputs.map((s) => findRule("embedding", wire, (r) => matches(r, s) && hasAll(r, body)));
    const applied = [...new Set(perInput.filter(Boolean))];
    for (const r of applied) r.used++;

    const failing = applied.find(isFailure);
    const concepts = conceptMap();
    // The failing rule (if any) decides the whole reply; otherwise merge delays/headers.
    const effective = failing ?? {
      delayMs: Math.max(0, ...applied.map((r) => r.delayMs ?? 0)),
      headers: Object.assign({}, ...applied.map((r) => r.headers ?? {})),
      status: applied.find((r) => r.status !== undefined)?.status,
    };
    await reply(req, res, entry, effective, wire, () => {
      const vectors = inputs.map((s, index) => perInput[index]?.vector ?? defaultEmbedding(s, dim, concepts));
      return wire.embeddingReply({ body, inputs, vectors, params });
    });
  }

  async function handleRerank(req, res, entry, body, wire) {
    const { query, documents } = body;
    Object.assign(entry, { query, documents });
    const rule = findRule("rerank", wire, (r) => matches(r, query));
    if (rule) rule.used++;
    else entry.unmatched = true;
    const given = typeof rule?.scores === "function" ? rule.scores({ query, documents }) : rule?.scores;
    const scores = documents.map((document, index) => given?.[index] ?? overlap(query, document));
    await reply(req, res, entry, rule, wire, () => wire.reply(body, scores));
  }

  async function handleControl(req, res, url, raw) {
    const ok = (obj) => send(res, null, 200, JSON.stringify(obj));
    if (req.method === "POST" && url.pathname === "/__reset") return ok((handle.reset(), { ok: true }));
    if (req.method === "GET" && url.pathname === "/__requests")
      return ok(handle.requests(url.searchParams.get("kind") ?? url.searchParams.get("path") ?? undefined));
    if (req.method === "POST" && url.pathname === "/__script") {
      try {
        handle.script(JSON.parse(raw));
      } catch (e) {
        return send(res, null, 400, errorBody(400, `bad rule: ${e.message}`));
      }
      return ok({ ok: true, rules: rules.length });
    }
    send(res, null, 404, errorBody(404, `unknown control endpoint ${req.method} ${url.pathname}`));
  }

  async function onRequest(req, res) {
    const time = Date.now();
    if (req.method === "OPTIONS") {
      res.writeHead(204, CORS_HEADERS);
      return res.end();
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url, `http://${HOST}`);
    if (url.pathname.startsWith("/__")) return handleControl(req, res, url, raw);

    let body = raw; // raw string if it is not JSON
    let parsed = true;
    try {
      body = JSON.parse(raw);
    } catch {
      parsed = false;
    }
    const found = route(req.method, url, body) ?? (req.method === "POST" ? rerankRoute(url.pathname, body) : undefined);
    const kind = found?.kind ?? "other";
    const entry = { kind, method: req.method, path: url.pathname, headers: { ...req.headers }, body, time };
    if (url.search) entry.query = Object.fromEntries(url.searchParams);
    if (found) entry.wire = found.wire.name;
    log.push(entry);

    if (!found) return send(res, entry, 404, errorBody(404, `unknown path ${req.method} ${url.pathname}`));
    const { wire, params } = found;
    if (!parsed || body === null || typeof body !== "object" || Array.isArray(body))
      return send(res, entry, 400, errorBody(400, "request body is not a valid JSON object", wire));
    const problem = wire.check(kind, { body, headers: req.headers, url, params });
    if (problem) {
      entry.invalid = problem.message;
      return send(res, entry, problem.status, errorBody(problem.status, problem.message, wire));
    }
    if (kind === "rerank") return handleRerank(req, res, entry, body, wire);
    return kind === "chat"
      ? handleChat(req, res, entry, body, wire, params)
      : handleEmbeddings(req, res, entry, body, wire, params);
  }

  const server = http.createServer((req, res) => {
    onRequest(req, res).catch((err) => {
      if (!res.headersSent && !res.destroyed)
        send(res, null, 500, errorBody(500, `scripted-server bug: ${err.message}`));
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => (server.off("error", reject), resolve()));
  });

  handle.port = server.address().port;
  handle.url = `http://${HOST}:${handle.port}`;
  handle.baseUrl = `${handle.url}/v1`;
  return handle;
}

// ---------------------------------------------------------------- CLI

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  let port = 8787;
  for (let i = 0; i < args.length; i++) {
    const m = /^--port(?:=(.*))?$/.exec(args[i]);
    if (m) port = Number(m[1] ?? args[++i]);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error("usage: node scripted-server.mjs [--port N]   (N = 0 picks a free port)");
    process.exit(2);
  }
  const server = await startScriptedServer({ port });
  process.stdout.write(`listening ${server.url}\n`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

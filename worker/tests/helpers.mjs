// Shared setup for the Worker tests: the built worker (build/index.js) in workerd through Miniflare, its KV
// namespace workerd's own local KV, and the LLM / embedder the scripted OpenAI-compatible server.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before } from "node:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { startScriptedServer } from "../../tests/support/scripted-server.mjs";

export const WORKER_DIR = fileURLToPath(new URL("..", import.meta.url));
export const T = { timeout: 60_000 };

/** Start of the default fact-extraction and update-decision system prompts. */
export const EXTRACT = "You are an expert at extracting structured, atomic facts";
export const DECIDE = "You are a memory management system";

/** Bearer tokens of the two test tenants. */
export const ACME = "tok-acme-0123456789";
export const INITECH = "tok-initech-9876543210";
export const TOKENS = { [ACME]: "acme", [INITECH]: "initech" };

export const startServer = () => startScriptedServer({ port: 0 });

/** A scripted server and a worker over it for the calling test file: started before its tests, stopped after
 * them. `rig.server` and `rig.worker` are set once they are up. */
export function workerForFile(options) {
  const rig = {};
  before(async () => {
    rig.server = await startServer();
    rig.worker = await startWorker(rig.server, options);
  });
  after(async () => {
    await rig.worker?.dispose();
    await rig.server?.close();
  });
  return rig;
}

/** A fresh directory for persisted KV data, removed after test `t`. */
export function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), "memwasm-worker-"));
  t?.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Bundles the JS Worker of `tests/<folder>/wrangler.toml` into `outdir`, as `wrangler deploy` would upload
 * it; returns the bundle's files. */
export function bundleJsWorker(folder, outdir) {
  execFileSync(
    join(WORKER_DIR, "node_modules/.bin/wrangler"),
    ["deploy", "--dry-run", "--outdir", outdir, "--config", `tests/${folder}/wrangler.toml`],
    { cwd: WORKER_DIR, env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: "pipe" },
  );
  return readdirSync(outdir);
}

/** The bundle in `outdir` (see `bundleJsWorker`) in workerd, its .wasm files as compiled modules;
 * `options` adds Miniflare's bindings, flags or KV. */
export function startBundle(outdir, options = {}) {
  return new Miniflare({
    modules: true,
    scriptPath: join(outdir, "index.js"),
    modulesRoot: outdir,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
    ...options,
  });
}

/** The vars and secrets of the service, pointed at `server`. */
export function serviceVars(server, over = {}) {
  return {
    MEMORY_TOKENS: JSON.stringify(TOKENS),
    LLM_BASE_URL: server.baseUrl,
    EMBEDDER_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: "test-key",
    LLM_MODEL: "test-llm",
    EMBEDDER_MODEL: "test-embed",
    EMBEDDER_DIMENSIONS: "64",
    MAX_RETRIES: "0",
    ...over,
  };
}

/** The storage backend the tests run against: `STORAGE` of `vars`, else `MEMWASM_WORKER_STORAGE`, else "do". */
export const storageOf = (vars = {}) => vars.STORAGE ?? process.env.MEMWASM_WORKER_STORAGE ?? "do";

/**
 * The built Rust worker in workerd, with a local KV namespace and the tenants' Durable Objects (SQLite-backed),
 * both persisted to `persist` when given. `storage` ("kv" / "do") defaults to `storageOf(vars)`.
 */
export async function startWorker(server, { vars = {}, persist, storage = storageOf(vars) } = {}) {
  const bindings = serviceVars(server, vars);
  if (vars.STORAGE === undefined) bindings.STORAGE = storage;
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(WORKER_DIR, "build/index.js"),
    modulesRoot: join(WORKER_DIR, "build"),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01",
    kvNamespaces: ["MEMORY_KV"],
    kvPersist: persist ? join(persist, "kv") : false,
    durableObjects: { TENANTS: { className: "TenantObject", useSQLite: true } },
    durableObjectsPersist: persist ? join(persist, "do") : false,
    bindings: { DO_TEST_HOOKS: "true", ...bindings },
  });
  await mf.ready;
  return client(mf, storage, grantsOf(bindings.MEMORY_TOKENS));
}

/** The grants of a `MEMORY_TOKENS` value (none when it is not a JSON object: tests of a bad config). */
function grantsOf(tokens) {
  try {
    return Object.values(JSON.parse(tokens) ?? {});
  } catch {
    return [];
  }
}

/** The tenant a token map value names. */
const tenantOf = (grant) => (typeof grant === "string" ? grant : grant.tenant);

/**
 * A read-only view with KV's `list` / `get` over the tenants' Durable Object storage (through the test-only
 * `/__do/storage/` routes of `DO_TEST_HOOKS`), so tests that look at stored keys run on either backend.
 */
function objectStorage(mf, grants) {
  const tenants = [...new Set(grants.map(tenantOf))].sort();
  const ask = async (tenant, route, param) => {
    const namespace = await mf.getDurableObjectNamespace("TENANTS");
    const stub = namespace.get(namespace.idFromName(tenant));
    const url = `http://memwasm.internal/__do/storage/${route}?${new URLSearchParams(param)}`;
    const response = await stub.fetch(url, { headers: { "x-memwasm-tenant": tenant } });
    if (response.status !== 200) throw new Error(`${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const owner = (key) => tenants.filter((tenant) => key.startsWith(`t/${encodeURIComponent(tenant)}/`) || `t/${tenant}/`.startsWith(key));
  return {
    async list({ prefix = "" } = {}) {
      const names = [];
      for (const tenant of owner(prefix)) names.push(...(await ask(tenant, "list", { prefix })).keys);
      return { keys: names.sort().map((name) => ({ name })), list_complete: true };
    },
    async get(key, type) {
      const [tenant] = owner(key);
      if (!tenant) return null;
      const { value } = await ask(tenant, "get", { key });
      return value === null || type !== "json" ? value : JSON.parse(value);
    },
  };
}

/** `call(method, path, {token, body, raw, headers})` → `{status, body}` against a Miniflare instance. */
export function client(mf, storage = "kv", grants = []) {
  async function call(method, path, { token = ACME, body, raw, headers = {} } = {}) {
    const init = { method, headers: { ...headers } };
    if (token) init.headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["content-type"] = "application/json";
    }
    if (raw !== undefined) init.body = raw;
    if (raw instanceof ReadableStream) init.duplex = "half";
    const response = await mf.dispatchFetch(`http://memwasm.test${path}`, init);
    const text = await response.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }
  const kv = async () => (storage === "do" ? objectStorage(mf, grants) : mf.getKVNamespace("MEMORY_KV"));
  return { mf, call, storage, dispose: () => mf.dispose(), kv, rawKv: () => mf.getKVNamespace("MEMORY_KV") };
}

/** Every key in a KV namespace (following cursors). */
export async function allKeys(kv, prefix = "") {
  const keys = [];
  let cursor;
  do {
    const page = await kv.list({ prefix, cursor });
    keys.push(...page.keys.map((key) => key.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

let seedCounter = 0;
/** Scripts one add: the extraction returns `facts` and the decision ADDs them all. Returns the input text. */
export function scriptAdd(server, facts) {
  const input = `conversation-${++seedCounter}`;
  server.script([
    { kind: "chat", match: [EXTRACT, input], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, ...facts], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
  ]);
  return input;
}

/** Adds `facts` through the LLM pipeline for `scope` and returns their ids in order. */
export async function seed(call, server, facts, scope, token = ACME) {
  const messages = scriptAdd(server, facts);
  const { status, body } = await call("POST", "/v1/memories/", { token, body: { messages, ...scope } });
  assert.equal(status, 200, JSON.stringify(body));
  assert.deepEqual(
    body.results.map((event) => [event.event, event.memory]),
    facts.map((fact) => ["ADD", fact]),
  );
  return body.results.map((event) => event.id);
}

/** Asserts an error response: status and `{"error": {"code", "message"}}`. */
export function assertError(response, status, code) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body?.error?.code, code, JSON.stringify(response.body));
  assert.equal(typeof response.body.error.message, "string");
  assert.ok(response.body.error.message.length > 0);
}

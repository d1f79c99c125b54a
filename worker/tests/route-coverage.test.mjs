// Every route of every family answers in each storage mode ("kv", "do") and each shard mode (DO_SHARDS
// "tenant" and "scope"): never a 404 that names the route, nor a 501, unless the route declares it does not
// run there (the KV migration outside "do"; under "scope", the families other than the /v1/ memory routes).
// A wrong id or body is fine: the route was reached and answered.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, T, startServer, startWorker } from "./helpers.mjs";

const USER = { user_id: "alice" };
const MESSAGES = [{ role: "user", content: "alice likes tea" }];

/** One request per route: `[family, method, path, body?]`; `{id}` and `{gone}` are memory ids of alice. */
const ROUTES = [
  ["v1", "POST", "/v1/memories/", { messages: MESSAGES, ...USER, infer: false }],
  ["v1", "GET", "/v1/memories/search/?q=tea&user_id=alice"],
  ["v1", "POST", "/v1/memories/search/", { query: "tea", ...USER }],
  ["v1", "GET", "/v1/memories/?user_id=alice"],
  ["v1", "GET", "/v1/memories/{id}/"],
  ["v1", "PUT", "/v1/memories/{id}/", { text: "alice likes green tea" }],
  ["v1", "GET", "/v1/memories/{id}/history/"],
  ["v1", "DELETE", "/v1/memories/{gone}/"],
  ["v1", "GET", "/v1/entities/?user_id=alice"],
  ["v1", "GET", "/v1/entities/alice/relations/?user_id=alice"],
  ["v1", "GET", "/v1/export/?user_id=alice"],
  ["v1", "GET", "/v1/export/"],
  ["v1", "POST", "/v1/reembed/"],
  ["v1", "POST", "/v1/storage/migrate"],
  ["v1", "DELETE", "/v1/memories/?user_id=zed"],
  ["v1", "POST", "/v1/reset/"],
  ["tiers", "POST", "/v1/tiers/flush", { messages: MESSAGES, ...USER }],
  ["tiers", "POST", "/v1/tiers/context", { messages: MESSAGES, max_tokens: 100, ...USER }],
  ["tiers", "GET", "/v1/tiers/journal?user_id=alice"],
  ["tiers", "GET", "/v1/tiers/journals?user_id=alice"],
  ["tiers", "POST", "/v1/tiers/dream", USER],
  ["tiers", "GET", "/v1/tiers/profile?user_id=alice"],
  ["tiers", "GET", "/v1/tiers/diary?user_id=alice"],
  ["tiers", "GET", "/v1/tiers/inject?user_id=alice&max_tokens=100"],
  ["mem0", "GET", "/mem0/v1/ping/"],
  ["mem0", "POST", "/mem0/v1/memories/", { messages: MESSAGES, ...USER, infer: false }],
  ["mem0", "POST", "/mem0/v3/memories/add/", { messages: MESSAGES, ...USER, infer: false }],
  ["mem0", "GET", "/mem0/v1/event/none/"],
  ["mem0", "POST", "/mem0/v2/memories/", { filters: USER }],
  ["mem0", "POST", "/mem0/v3/memories/", { filters: USER }],
  ["mem0", "GET", "/mem0/v1/memories/?user_id=alice"],
  ["mem0", "POST", "/mem0/v1/memories/search/", { query: "tea", ...USER }],
  ["mem0", "POST", "/mem0/v2/memories/search/", { query: "tea", filters: USER }],
  ["mem0", "POST", "/mem0/v3/memories/search/", { query: "tea", filters: USER }],
  ["mem0", "GET", "/mem0/v1/memories/{id}/"],
  ["mem0", "PUT", "/mem0/v1/memories/{id}/", { text: "alice likes black tea" }],
  ["mem0", "GET", "/mem0/v1/memories/{id}/history/"],
  ["mem0", "DELETE", "/mem0/v1/memories/{gone}/"],
  ["mem0", "DELETE", "/mem0/v1/memories/?user_id=zed"],
  ["mem0", "GET", "/mem0/v1/entities/"],
  ["mem0", "DELETE", "/mem0/v1/entities/user/zed/"],
  ["mem0", "DELETE", "/mem0/v2/entities/user/zed/"],
  ["mem0", "PUT", "/mem0/v1/batch/", { memories: [] }],
  ["mem0", "DELETE", "/mem0/v1/batch/", { memories: [] }],
  ["mem0", "POST", "/mem0/v1/exports/", { schema: {}, filters: USER }],
  ["mem0", "POST", "/mem0/v1/exports/get/", { filters: USER }],
  ["mem0", "POST", "/mem0/v1/feedback/", { memory_id: "none", feedback: "POSITIVE" }],
  ["conversations", "POST", "/api/v1/memories", { message: "hi" }],
  ["conversations", "GET", "/api/v1/memories"],
  ["conversations", "DELETE", "/api/v1/memories", {}],
  ["conversations", "GET", "/api/v1/memories/search?query=tea"],
  ["conversations", "POST", "/api/v1/memories/search", { query: "tea" }],
  ["conversations", "GET", "/api/v1/memories/conversation-meta?group_id=g"],
  ["conversations", "POST", "/api/v1/memories/conversation-meta", { group_id: "g" }],
  ["conversations", "PATCH", "/api/v1/memories/conversation-meta", { group_id: "g" }],
  ["conversations", "POST", "/api/v1/memories/batch", {}],
  ["memory", "GET", "/api/v1/memory/stats"],
  ["memory", "POST", "/api/v1/memory/decay", {}],
  ["memory", "POST", "/api/v1/memory/share", {}],
  ["memory", "POST", "/api/v1/memory/agent-1/store", { key: "k", value: "v" }],
  ["memory", "GET", "/api/v1/memory/agent-1/search?q=v"],
  ["memory", "POST", "/api/v1/memory/agent-1/vector-search", { query: "v" }],
  ["memory", "GET", "/api/v1/memory/agent-1/list"],
  ["memory", "GET", "/api/v1/memory/agent-1/reflections"],
  ["memory", "GET", "/api/v1/memory/agent-1/k"],
  ["memory", "POST", "/api/v1/memory/agent-1/k/pin", {}],
  ["memory", "DELETE", "/api/v1/memory/agent-1/k"],
  ["memory", "DELETE", "/api/v1/memory/agent-1/clear"],
  ["mcp", "POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
];

/** What a route declares where it does not run: `null` when it runs in every mode. */
function declaredAbsent([family, method, path], { storage, shards }) {
  if (path === "/v1/storage/migrate") {
    if (storage === "kv") return { status: 404, code: "NOT_FOUND" };
    if (shards === "scope") return { status: 501, code: "NOT_SHARDED" };
    return null;
  }
  if (storage === "do" && shards === "scope" && family !== "v1") return { status: 501, code: "NOT_SHARDED" };
  return null;
}

/** Why `response` shows the route was never reached (a 404 naming the route, or a 501); `null` when it answered. */
function missing(response) {
  const text = JSON.stringify(response.body);
  if (response.status === 501) return `501 ${text}`;
  if (response.status === 404 && /route/i.test(text)) return `404 ${text}`;
  return null;
}

async function sweep(t, mode) {
  const server = await startServer();
  t.after(() => server.close());
  const vars = { STORAGE: mode.storage, DO_SHARDS: mode.shards };
  const worker = await startWorker(server, { vars });
  t.after(() => worker.dispose());
  const seeded = await worker.call("POST", "/v1/memories/", {
    body: { messages: [{ role: "user", content: "alice likes tea" }, { role: "user", content: "alice likes cake" }], ...USER, infer: false },
  });
  assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
  const [id, gone] = seeded.body.results.map((result) => result.id);
  const failures = [];
  for (const route of ROUTES) {
    const [family, method, template, body] = route;
    const path = template.replace("{id}", id).replace("{gone}", gone);
    const auth = family === "mem0" ? { token: null, headers: { authorization: `Token ${ACME}` } } : {};
    const extra = family === "mcp" ? { headers: { accept: "application/json, text/event-stream" } } : {};
    const response = await worker.call(method, path, { body, ...auth, ...extra });
    const absent = declaredAbsent(route, mode);
    if (absent) {
      if (response.status !== absent.status || (response.body?.error?.code ?? response.body?.detail) !== absent.code) {
        failures.push(`${method} ${template}: declared ${absent.status} ${absent.code}, got ${response.status} ${JSON.stringify(response.body)}`);
      }
      continue;
    }
    const why = missing(response);
    if (why) failures.push(`${method} ${template}: ${why}`);
  }
  assert.deepEqual(failures, [], failures.join("\n"));
}

for (const storage of ["kv", "do"]) {
  for (const shards of ["tenant", "scope"]) {
    test(`every route answers with STORAGE = "${storage}" and DO_SHARDS = "${shards}"`, T, (t) => sweep(t, { storage, shards }));
  }
}

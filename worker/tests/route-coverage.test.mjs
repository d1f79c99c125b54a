// Every route of every family, as the worker lists them (GET /__routes: each family's enum, with what scope
// sharding needs of each route), answers in each storage mode ("kv", "do") and each shard mode (DO_SHARDS
// "tenant" and "scope"): never a 404 that names the route, nor a 501, unless the route declares it does not
// run there (the KV migration outside "do"; the sync routes with "kv"; under "scope", the routes listed
// "unsharded": the families other than the /v1/ memory routes and sync). A wrong id or body is fine: the
// route was reached and answered.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, T, startServer, startWorker } from "./helpers.mjs";

const USER = { user_id: "alice" };
const MESSAGES = [{ role: "user", content: "alice likes tea" }];

/** One request or more per route, by `family.Route` as the worker lists its routes (`GET /__routes`, with
 * DO_TEST_HOOKS): `[method, path, body?]`; `{id}` and `{gone}` are memory ids of alice. */
const SAMPLES = {
  "v1.Add": [["POST", "/v1/memories/", { messages: MESSAGES, ...USER, infer: false }]],
  "v1.Search": [["GET", "/v1/memories/search/?q=tea&user_id=alice"], ["GET", "/v1/memories/search/?q=tea"]],
  "v1.SearchBody": [["POST", "/v1/memories/search/", { query: "tea", ...USER }], ["POST", "/v1/memories/search/", { query: "tea" }]],
  "v1.List": [["GET", "/v1/memories/?user_id=alice"], ["GET", "/v1/memories/"]],
  "v1.Get": [["GET", "/v1/memories/{id}/"]],
  "v1.Update": [["PUT", "/v1/memories/{id}/", { text: "alice likes green tea" }]],
  "v1.History": [["GET", "/v1/memories/{id}/history/"]],
  "v1.Sources": [["GET", "/v1/memories/{id}/sources/"]],
  "v1.Delete": [["DELETE", "/v1/memories/{gone}/"]],
  "v1.Entities": [["GET", "/v1/entities/?user_id=alice"]],
  "v1.Relations": [["GET", "/v1/entities/alice/relations/?user_id=alice"]],
  "v1.Export": [["GET", "/v1/export/?user_id=alice"], ["GET", "/v1/export/"]],
  "v1.Reembed": [["POST", "/v1/reembed/"]],
  "v1.Migrate": [["POST", "/v1/storage/migrate"]],
  "v1.DeleteScope": [["DELETE", "/v1/memories/?user_id=zed"], ["DELETE", "/v1/memories/?agent_id=zed"]],
  "v1.Reset": [["POST", "/v1/reset/"]],
  "tiers.Flush": [["POST", "/v1/tiers/flush", { messages: MESSAGES, ...USER }]],
  "tiers.Context": [["POST", "/v1/tiers/context", { messages: MESSAGES, max_tokens: 100, ...USER }]],
  "tiers.Journal": [["GET", "/v1/tiers/journal?user_id=alice"]],
  "tiers.Journals": [["GET", "/v1/tiers/journals?user_id=alice"]],
  "tiers.Dream": [["POST", "/v1/tiers/dream", USER]],
  "tiers.Profile": [["GET", "/v1/tiers/profile?user_id=alice"]],
  "tiers.Diary": [["GET", "/v1/tiers/diary?user_id=alice"]],
  "tiers.Inject": [["GET", "/v1/tiers/inject?user_id=alice&max_tokens=100"]],
  "mem0.Ping": [["GET", "/mem0/v1/ping/"]],
  "mem0.Add": [["POST", "/mem0/v1/memories/", { messages: MESSAGES, ...USER, infer: false }], ["POST", "/mem0/v3/memories/add/", { messages: MESSAGES, ...USER, infer: false }]],
  "mem0.Event": [["GET", "/mem0/v1/event/none/"]],
  "mem0.ListBody": [["POST", "/mem0/v2/memories/", { filters: USER }], ["POST", "/mem0/v3/memories/", { filters: USER }]],
  "mem0.List": [["GET", "/mem0/v1/memories/?user_id=alice"]],
  "mem0.Search": [
    ["POST", "/mem0/v1/memories/search/", { query: "tea", ...USER }],
    ["POST", "/mem0/v2/memories/search/", { query: "tea", filters: USER }],
    ["POST", "/mem0/v3/memories/search/", { query: "tea", filters: USER }],
  ],
  "mem0.Get": [["GET", "/mem0/v1/memories/{id}/"]],
  "mem0.Update": [["PUT", "/mem0/v1/memories/{id}/", { text: "alice likes black tea" }]],
  "mem0.History": [["GET", "/mem0/v1/memories/{id}/history/"]],
  "mem0.Delete": [["DELETE", "/mem0/v1/memories/{gone}/"]],
  "mem0.DeleteAll": [["DELETE", "/mem0/v1/memories/?user_id=zed"]],
  "mem0.Entities": [["GET", "/mem0/v1/entities/"]],
  "mem0.DeleteEntity": [["DELETE", "/mem0/v1/entities/user/zed/"], ["DELETE", "/mem0/v2/entities/user/zed/"]],
  "mem0.BatchUpdate": [["PUT", "/mem0/v1/batch/", { memories: [] }]],
  "mem0.BatchDelete": [["DELETE", "/mem0/v1/batch/", { memories: [] }]],
  "mem0.CreateExport": [["POST", "/mem0/v1/exports/", { schema: {}, filters: USER }]],
  "mem0.GetExport": [["POST", "/mem0/v1/exports/get/", { filters: USER }]],
  "mem0.Feedback": [["POST", "/mem0/v1/feedback/", { memory_id: "none", feedback: "POSITIVE" }]],
  "conversations.Store": [["POST", "/api/v1/memories", { message: "hi" }]],
  "conversations.Fetch": [["GET", "/api/v1/memories"]],
  "conversations.Delete": [["DELETE", "/api/v1/memories", {}]],
  "conversations.Search": [["GET", "/api/v1/memories/search?query=tea"], ["POST", "/api/v1/memories/search", { query: "tea" }]],
  "conversations.GetMeta": [["GET", "/api/v1/memories/conversation-meta?group_id=g"]],
  "conversations.SaveMeta": [["POST", "/api/v1/memories/conversation-meta", { group_id: "g" }]],
  "conversations.PatchMeta": [["PATCH", "/api/v1/memories/conversation-meta", { group_id: "g" }]],
  "conversations.Batch": [["POST", "/api/v1/memories/batch", {}]],
  "memory.Stats": [["GET", "/api/v1/memory/stats"]],
  "memory.Decay": [["POST", "/api/v1/memory/decay", {}]],
  "memory.Share": [["POST", "/api/v1/memory/share", {}]],
  "memory.Store": [["POST", "/api/v1/memory/agent-1/store", { key: "k", value: "v" }]],
  "memory.Search": [["GET", "/api/v1/memory/agent-1/search?q=v"]],
  "memory.VectorSearch": [["POST", "/api/v1/memory/agent-1/vector-search", { query: "v" }]],
  "memory.List": [["GET", "/api/v1/memory/agent-1/list"]],
  "memory.Reflections": [["GET", "/api/v1/memory/agent-1/reflections"]],
  "memory.Get": [["GET", "/api/v1/memory/agent-1/k"]],
  "memory.Pin": [["POST", "/api/v1/memory/agent-1/k/pin", {}]],
  "memory.Delete": [["DELETE", "/api/v1/memory/agent-1/k"]],
  "memory.Clear": [["DELETE", "/api/v1/memory/agent-1/clear"]],
  "mcp.Rpc": [["POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }]],
  "sync.Push": [["POST", "/v1/sync/push", { clientId: "c", entries: [{ n: 1, data: "x" }], userId: "alice" }]],
  "sync.Pull": [["GET", "/v1/sync/pull?userId=alice"]],
  "sync.Compact": [["POST", "/v1/sync/compact", { deviceId: "d", snapshotId: "s", upTo: 1, entries: [], userId: "alice" }]],
  "sync.Status": [["GET", "/v1/sync?userId=alice"]],
  "sync.Wipe": [["DELETE", "/v1/sync?userId=alice"]],
};

/** Where a listed route declares it does not run: `null` when it runs in this mode. */
function declaredAbsent({ family, route, shard }, { storage, shards }) {
  // The KV migration copies KV data into the objects: it runs with STORAGE = "do" only.
  if (family === "v1" && route === "Migrate" && storage === "kv") return { status: 404, code: "NOT_FOUND" };
  // The sync log lives in Durable Objects only.
  if (family === "sync" && storage === "kv") return { status: 501, code: "SYNC_NEEDS_DURABLE_OBJECTS" };
  if (storage === "do" && shards === "scope" && shard === "unsharded") return { status: 501, code: "NOT_SHARDED" };
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
  const listing = await worker.call("GET", "/__routes", { token: null });
  assert.equal(listing.status, 200, JSON.stringify(listing.body));
  const listed = listing.body.routes.map((route) => `${route.family}.${route.route}`);
  assert.deepEqual(listed.filter((name) => !SAMPLES[name]), [], "every listed route has a request in SAMPLES");
  assert.deepEqual(Object.keys(SAMPLES).filter((name) => !listed.includes(name)), [], "every request in SAMPLES is of a listed route");
  // The whole-tenant routes last: a reset empties the tenant.
  const routes = [...listing.body.routes].sort((a, b) => (a.route === "Reset") - (b.route === "Reset"));
  const failures = [];
  for (const route of routes) {
    for (const [method, template, body] of SAMPLES[`${route.family}.${route.route}`]) {
      const path = template.replace("{id}", id).replace("{gone}", gone);
      const auth = route.family === "mem0" ? { token: null, headers: { authorization: `Token ${ACME}` } } : {};
      const response = await worker.call(method, path, { body, ...auth });
      const absent = declaredAbsent(route, mode);
      const code = response.body?.error?.code;
      if (absent && (response.status !== absent.status || code !== absent.code)) {
        failures.push(`${method} ${template}: declared ${absent.status} ${absent.code}, got ${response.status} ${JSON.stringify(response.body)}`);
      }
      const why = absent ? null : missing(response);
      if (why) failures.push(`${method} ${template}: ${why}`);
    }
  }
  assert.deepEqual(failures, [], failures.join("\n"));
}

for (const storage of ["kv", "do"]) {
  for (const shards of ["tenant", "scope"]) {
    test(`every route answers with STORAGE = "${storage}" and DO_SHARDS = "${shards}"`, T, (t) => sweep(t, { storage, shards }));
  }
}

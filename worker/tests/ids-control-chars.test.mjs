// Ids holding a control character or a line separator are refused with a 400 and a coded body on every
// route family: REST scope ids, memory API keys, conversation message ids. Ordinary Unicode ids still work.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertFailed, message } from "./conversations-helpers.mjs";
import { T, assertError, workerForFile } from "./helpers.mjs";

const BAD = ["a\u0000b", "a\u001b[31m", "a\u007f", "a\u2028b"];

const rig = workerForFile();

const call = (...args) => rig.worker.call(...args);

test("REST user_id (body or query) with a control character is 400 INVALID_INPUT and stores nothing", T, async () => {
  for (const bad of BAD) {
    const body = { messages: [{ role: "user", content: "I like tea" }], user_id: bad, infer: false };
    assertError(await call("POST", "/v1/memories/", { body }), 400, "INVALID_INPUT");
    assertError(await call("GET", `/v1/memories/?user_id=${encodeURIComponent(bad)}`), 400, "INVALID_INPUT");
    assertError(await call("POST", "/v1/memories/search/", { body: { query: "tea", user_id: bad } }), 400, "INVALID_INPUT");
    const mem0 = await call("POST", "/mem0/v3/memories/add/", { body: { messages: "I like tea", user_id: bad, infer: false } });
    assert.equal(mem0.status, 400, JSON.stringify(mem0.body));
  }
  const all = await call("GET", "/v1/memories/?user_id=a");
  assert.equal(all.status, 200, JSON.stringify(all.body));
  assert.deepEqual(all.body.results, []);
});

test("memory API keys with a control character are 400 INVALID_INPUT", T, async () => {
  for (const bad of BAD) {
    const stored = await call("POST", "/api/v1/memory/agent-1/store", { body: { key: bad, value: "v" } });
    assertError(stored, 400, "INVALID_INPUT");
    assertError(await call("GET", `/api/v1/memory/agent-1/${encodeURIComponent(bad)}`), 400, "INVALID_INPUT");
  }
  const list = await call("GET", "/api/v1/memory/agent-1/list");
  assert.deepEqual(list.body.entries, []);
});

test("a conversation message_id, sender or group_id with a control character is 400", T, async () => {
  for (const bad of BAD) {
    for (const field of ["message_id", "sender", "group_id"]) {
      const body = { ...message("m1", "2025-03-05T08:00:00Z", "erin", "Hello", "ids"), [field]: bad };
      assertFailed(await call("POST", "/api/v1/memories", { body }), 400, "INVALID_PARAMETER");
    }
  }
});

test("ordinary Unicode ids, keys and message ids still work", T, async () => {
  for (const id of ["Zoë", "用户", "🙂-user"]) {
    const body = { messages: [{ role: "user", content: "I like tea" }], user_id: id, infer: false };
    const added = await call("POST", "/v1/memories/", { body });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const listed = await call("GET", `/v1/memories/?user_id=${encodeURIComponent(id)}`);
    assert.deepEqual(listed.body.results.map((m) => m.user_id), [id]);
    const stored = await call("POST", "/api/v1/memory/agent-1/store", { body: { key: id, value: "v" } });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.equal((await call("GET", `/api/v1/memory/agent-1/${encodeURIComponent(id)}`)).body.key, id);
    const sent = await call("POST", "/api/v1/memories", { body: message(`消息-${id}`, "2025-03-05T08:00:00Z", id, "Hello", "ids") });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
  }
});

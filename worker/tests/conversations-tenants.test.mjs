// Tenant isolation on every /api/v1/memories route: initech's tenant-wide token uses the same group, user
// and message ids as acme's and never reads, extends, updates or deletes acme's buffers, memories or
// metadata. Without a valid token every route is 401, with a user token 403, in the conversation API's envelope.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ACME, INITECH, T, startServer } from "./helpers.mjs";
import { USER1 } from "./memory-helpers.mjs";
import {
  BASE, assertFailed, episode, message, noBoundary, okResult, query, startConversationWorker,
} from "./conversations-helpers.mjs";

let server;
let worker;
const META = `${BASE}/conversation-meta`;
const as = (token) => (method, path, options = {}) => worker.call(method, path, { ...options, token });
const acme = (...args) => as(ACME)(...args);
const initech = (...args) => as(INITECH)(...args);
const META_BODY = { version: "1", scene: "group_chat", scene_desc: {}, name: "Acme secret team", group_id: "shared", created_at: "2025-01-01T00:00:00Z" };
const FILE = {
  version: "1.0.0",
  conversation_meta: { scene: "group_chat", name: "Initech team", group_id: "shared" },
  conversation_list: [{ message_id: "s1", create_time: "2025-04-01T12:00:00Z", sender: "alice", content: "Initech's own message" }],
};

before(async () => {
  server = await startServer();
  worker = await startConversationWorker(server);
  server.script([noBoundary(), episode("zebra launch code", { summary: "Alice told Bob the zebra launch code." })]);
  okResult(await acme("POST", META, { body: META_BODY }));
  okResult(await acme("POST", BASE, { body: message("s1", "2025-04-01T09:00:00Z", "alice", "The zebra launch code is 42.", "shared") }));
  okResult(await acme("POST", BASE, { body: message("s2", "2025-04-01T10:00:00Z", "bob", "Noted.", "shared") }));
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

/** acme's episode, pending message and metadata are as stored. */
async function acmeIsIntact() {
  const episodes = okResult(await acme("GET", BASE + query({ group_id: "shared" }))).memories;
  assert.deepEqual(episodes.map((m) => m.content), ["Alice told Bob the zebra launch code."]);
  const found = okResult(await acme("GET", `${BASE}/search` + query({ query: "zebra", group_id: "shared" })));
  assert.deepEqual(found.pending_messages.map((m) => m.message_id), ["s2"]);
  assert.equal(okResult(await acme("GET", `${META}?group_id=shared`)).name, "Acme secret team");
}

test("fetch, search and conversation-meta see only the caller's tenant", T, async () => {
  await acmeIsIntact();
  assert.deepEqual(okResult(await initech("GET", BASE + query({ group_id: "shared" }))).memories, []);
  assert.deepEqual(okResult(await initech("GET", BASE + query({ user_id: "alice", memory_type: "profile" }))).memories, []);
  const found = okResult(await initech("GET", `${BASE}/search` + query({ query: "zebra", group_id: "shared" })));
  assert.deepEqual([found.memories, found.pending_messages], [[], []]);
  assertFailed(await initech("GET", `${META}?group_id=shared`), 404, "RESOURCE_NOT_FOUND");
  assertFailed(await initech("PATCH", META, { body: { group_id: "shared", name: "Hijacked" } }), 404, "RESOURCE_NOT_FOUND");
  await acmeIsIntact();
});

test("the same ids in another tenant are separate messages, metadata and batches", T, async () => {
  const stored = okResult(await initech("POST", BASE, { body: message("s2", "2025-04-01T10:00:00Z", "bob", "Initech's s2", "shared") }));
  assert.deepEqual([stored.duplicate, stored.pending_messages.map((m) => m.content)], [false, ["Initech's s2"]]);
  okResult(await initech("POST", META, { body: { ...META_BODY, name: "Initech team" } }));
  const ran = okResult(await initech("POST", `${BASE}/batch`, { body: FILE }));
  assert.deepEqual([ran.stored, ran.duplicates], [1, 0]);
  await acmeIsIntact();
});

test("delete touches only the caller's tenant", T, async () => {
  assert.deepEqual(okResult(await initech("DELETE", BASE, { body: { group_id: "shared" } })).count, 0);
  assert.deepEqual(okResult(await initech("DELETE", BASE, { body: { user_id: "alice" } })).count, 0);
  await acmeIsIntact();
});

test("every route is 401 without a valid token and 403 with a user token", T, async () => {
  const routes = [
    ["POST", BASE, message("z1", "2025-04-02T09:00:00Z", "alice", "hi")],
    ["GET", BASE + query({ group_id: "shared" })],
    ["GET", `${BASE}/search?query=zebra&group_id=shared`],
    ["GET", `${META}?group_id=shared`],
    ["POST", META, META_BODY],
    ["PATCH", META, { group_id: "shared", name: "x" }],
    ["DELETE", BASE, { group_id: "shared" }],
    ["POST", `${BASE}/batch`, FILE],
  ];
  for (const [method, path, body] of routes) {
    const bare = path.split("?")[0];
    for (const token of [null, "tok-nobody", ACME.slice(0, -1)]) {
      const response = await worker.call(method, path, { token, body });
      assertFailed(response, 401, "UNAUTHORIZED", bare);
      assert.equal(response.headers.get("www-authenticate"), "Bearer");
    }
    assertFailed(await as(USER1)(method, path, { body }), 403, "FORBIDDEN", bare);
  }
  await acmeIsIntact();
});

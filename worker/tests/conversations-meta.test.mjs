// The conversation API's conversation metadata (GET / POST / PATCH /api/v1/memories/conversation-meta) and
// delete by filter (DELETE /api/v1/memories): upsert with the default config as fallback, partial updates with
// `updated_fields`, soft delete by event_id / user_id / group_id (AND), and their error envelopes.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, startServer } from "./helpers.mjs";
import {
  BASE, assertFailed, episode, message, noBoundary, okResult, profileOf, query, startConversationWorker,
} from "./conversations-helpers.mjs";

let server;
let worker;
const META = `${BASE}/conversation-meta`;
const call = (...args) => worker.call(...args);
before(async () => {
  server = await startServer();
  worker = await startConversationWorker(server);
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const TEAM = {
  version: "1.0.0",
  scene: "group_chat",
  scene_desc: { description: "Project discussion group chat", type: "project_discussion" },
  name: "Engineering Team",
  description: "Backend team discussions",
  group_id: "group_123",
  created_at: "2025-01-15T10:00:00Z",
  default_timezone: "America/New_York",
  user_details: { alice: { full_name: "Alice Smith", role: "user", custom_role: "Tech Lead" } },
  tags: ["engineering", "backend"],
};

test("conversation metadata: 404 before a save, upsert, default config fallback", T, async () => {
  assertFailed(await call("GET", `${META}?group_id=group_123`), 404, "RESOURCE_NOT_FOUND", META);
  const saved = await call("POST", META, { body: TEAM });
  assert.equal(saved.body.message, "Conversation metadata saved successfully");
  const meta = okResult(saved);
  assert.deepEqual({ ...meta, id: undefined, updated_at: undefined }, {
    ...TEAM, id: undefined, updated_at: undefined, is_default: false, created_at: "2025-01-15T10:00:00.000Z",
  });
  const again = okResult(await call("POST", META, { body: { ...TEAM, name: "Platform Team" } }));
  assert.deepEqual([again.id, again.name], [meta.id, "Platform Team"], "an upsert keeps the id");
  assert.equal(okResult(await call("GET", `${META}?group_id=group_123`)).name, "Platform Team");

  assertFailed(await call("GET", META), 404, "RESOURCE_NOT_FOUND");
  const fallback = { ...TEAM, group_id: undefined, name: "Defaults", scene: "assistant" };
  assert.equal(okResult(await call("POST", META, { body: fallback })).is_default, true);
  const other = okResult(await call("GET", `${META}?group_id=unknown-group`));
  assert.deepEqual([other.name, other.is_default, other.group_id], ["Defaults", true, undefined]);
  assert.equal(okResult(await call("GET", META)).name, "Defaults");
});

test("PATCH changes only the updatable fields and names them", T, async () => {
  const response = await call("PATCH", META, {
    body: { group_id: "group_123", name: "Updated Team Name", tags: ["engineering", "python"], scene_desc: { description: "x" } },
  });
  assert.equal(response.body.message, "Conversation metadata updated successfully, 3 fields updated");
  const patched = okResult(response);
  assert.deepEqual(patched.updated_fields, ["name", "scene_desc", "tags"]);
  assert.deepEqual([patched.name, patched.tags, patched.scene, patched.description], ["Updated Team Name", ["engineering", "python"], "group_chat", "Backend team discussions"]);
  assert.ok(Date.parse(patched.updated_at) > 0);
  assertFailed(await call("PATCH", META, { body: { group_id: "group_123", scene: "assistant" } }), 400, "INVALID_PARAMETER", META);
  assertFailed(await call("PATCH", META, { body: { group_id: "group_123" } }), 400, "INVALID_PARAMETER");
  assertFailed(await call("PATCH", META, { body: { group_id: "never-saved", name: "x" } }), 404, "RESOURCE_NOT_FOUND");
});

test("bad metadata is INVALID_PARAMETER and saves nothing", T, async () => {
  for (const body of [
    { ...TEAM, group_id: "bad", scene: "work" },
    { ...TEAM, group_id: "bad", version: undefined },
    { ...TEAM, group_id: "bad", created_at: "2025-01-15T10:00:00" },
    { ...TEAM, group_id: "bad", sceneDesc: {} },
    { ...TEAM, group_id: "bad", colour: "red" },
  ]) {
    assertFailed(await call("POST", META, { body }), 400, "INVALID_PARAMETER", META);
  }
  assert.equal(okResult(await call("GET", `${META}?group_id=bad`)).is_default, true, "only the default config exists");
  assertFailed(await call("GET", `${META}?group=bad`), 400, "INVALID_PARAMETER");
});

test("DELETE soft-deletes what matches every filter given; all __all__ is refused", T, async () => {
  server.script([
    noBoundary(),
    episode("release checklist", { summary: "Alice and Bob reviewed the release checklist.", profiles: [profileOf("alice", { role: "release manager" })] }),
    episode("holiday plans", { summary: "Alice shared her holiday plans." }),
  ]);
  for (const m of [
    message("r1", "2025-02-01T09:00:00Z", "alice", "Let us go through the release checklist.", "release"),
    message("r2", "2025-02-01T09:01:00Z", "bob", "Checklist done.", "release"),
    message("r3", "2025-02-02T09:00:00Z", "alice", "My holiday plans: Portugal.", "release"),
    message("r4", "2025-02-03T09:00:00Z", "bob", "Back to work.", "release"),
  ]) {
    okResult(await call("POST", BASE, { body: m }));
  }
  const episodes = okResult(await call("GET", BASE + query({ group_id: "release" }))).memories;
  assert.equal(episodes.length, 2);

  for (const body of [{}, { event_id: "__all__", user_id: "__all__", group_id: "__all__" }, { user_id: " " }]) {
    assertFailed(await call("DELETE", BASE, { body }), 400, "INVALID_PARAMETER", BASE);
  }
  assertFailed(await call("DELETE", BASE, { body: { memory_id: "x" } }), 400, "INVALID_PARAMETER");

  const byEvent = await call("DELETE", BASE, { body: { event_id: episodes[0].event_id, group_id: "release", user_id: "__all__" } });
  assert.equal(byEvent.body.message, "Successfully deleted 1 memories");
  assert.deepEqual(okResult(byEvent), { filters: ["event_id", "group_id"], count: 1 });
  const left = okResult(await call("GET", BASE + query({ group_id: "release" }))).memories;
  assert.deepEqual(left.map((m) => m.content), ["Alice shared her holiday plans."]);
  assert.equal(okResult(await call("GET", BASE + query({ user_id: "alice", memory_type: "profile" }))).memories.length, 1, "profiles survive an episode's deletion");

  // A user + group delete removes what is the user's in the group (her profile); she leaves the episode she took
  // part in, which stays the group's.
  const byQuery = okResult(await call("DELETE", BASE + query({ user_id: "alice", group_id: "release" })));
  assert.deepEqual(byQuery, { filters: ["user_id", "group_id"], count: 1, left: 1 });
  assert.deepEqual(okResult(await call("GET", BASE + query({ user_id: "alice", group_id: "release" }))).memories, []);
  assert.deepEqual(okResult(await call("GET", BASE + query({ group_id: "release" }))).memories.map((m) => m.content), ["Alice shared her holiday plans."]);
  assert.deepEqual(okResult(await call("DELETE", BASE, { body: { group_id: "release" } })), { filters: ["group_id"], count: 1 });
  assert.deepEqual(okResult(await call("GET", BASE + query({ group_id: "release" }))).memories, []);
  assert.deepEqual(okResult(await call("DELETE", BASE, { body: { group_id: "release" } })).count, 0);
});

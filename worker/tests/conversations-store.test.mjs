// The conversation API's store a message (POST /api/v1/memories): a group chat sent one message at a time accumulates in
// the group's buffer; a 40-minute gap closes the episode, whose scripted extraction becomes episodic,
// event_log, foresight and profile memories, fetched back by type. Duplicates, the default group, and bad
// messages answered with the API's error envelope while nothing changes.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, startServer } from "./helpers.mjs";
import {
  BASE, addsAll, assertFailed, episode, message, noBoundary, okResult, profileOf, query, startConversationWorker,
} from "./conversations-helpers.mjs";

let server;
let worker;
before(async () => {
  server = await startServer();
  worker = await startConversationWorker(server);
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});
const call = (...args) => worker.call(...args);

const CHAT = [
  message("m1", "2025-03-03T10:00:00+01:00", "alice", "The launch review moved to Thursday.", "rocket", { sender_name: "Alice", role: "user" }),
  message("m2", "2025-03-03T09:05:00Z", "bob", "I'll prepare the slides by Wednesday.", "rocket", { refer_list: ["m1"] }),
  message("m3", "2025-03-03T09:10:00Z", "alice", "I am flying to Berlin tonight.", "rocket", { sender_name: "Alice" }),
  // 40 minutes after m3: the gap closes m1–m3 before this one.
  message("m4", "2025-03-03T09:50:00Z", "bob", "Has anyone tried the new coffee machine?"),
];
const FACT = "The launch review moved to Thursday 2025-03-06";

test("a chat accumulates, then a gap extracts the episode into typed memories", T, async () => {
  server.script([
    noBoundary(),
    episode("launch review moved to Thursday", {
      title: "Launch review moved",
      summary: "On 3 March 2025 Alice told Bob the launch review moved to Thursday; Bob prepares the slides.",
      eventLog: [FACT],
      foresight: [{ text: "Bob will prepare the review slides by Wednesday", valid_until: "2025-03-05" }],
      profiles: [profileOf("alice", { travel: "flying to Berlin" })],
    }),
    addsAll([FACT]),
  ]);
  for (const [i, m] of CHAT.slice(0, 3).entries()) {
    const response = await call("POST", BASE, { body: m });
    const result = okResult(response);
    assert.equal(response.body.message, "Message queued, awaiting boundary detection");
    assert.deepEqual([result.status_info, result.count, result.saved_memories, result.group_id], ["accumulated", 0, [], "rocket"]);
    assert.deepEqual(result.pending_messages.map((p) => p.message_id), CHAT.slice(0, i + 1).map((p) => p.message_id));
  }
  const first = okResult(await call("POST", BASE, { body: CHAT[0] }));
  assert.equal(first.pending_messages[0].create_time, "2025-03-03T09:00:00.000Z", "kept in UTC");

  const response = await call("POST", BASE, { body: CHAT[3] });
  const result = okResult(response);
  assert.equal(response.body.message, "Extracted 4 memories");
  assert.equal(result.status_info, "extracted");
  assert.equal(result.count, 4);
  assert.deepEqual(result.saved_memories.map((m) => [m.event, m.memory_type]).sort(), [
    ["ADD", "episodic_memory"], ["ADD", "event_log"], ["ADD", "foresight"], ["ADD", "profile"],
  ]);
  const [closed] = result.episodes;
  assert.deepEqual({ ...closed, event_id: undefined }, {
    event_id: undefined, cause: "gap", start_time: "2025-03-03T09:00:00.000Z", end_time: "2025-03-03T09:10:00.000Z",
    message_ids: ["m1", "m2", "m3"],
  });
  assert.deepEqual(result.pending_messages.map((p) => p.message_id), ["m4"]);

  const fetched = async (params) => okResult(await call("GET", BASE + query(params)));
  const episodic = await fetched({ group_id: "rocket" });
  assert.equal(episodic.total_count, 1);
  assert.equal(episodic.has_more, false);
  const [narrative] = episodic.memories;
  assert.equal(narrative.memory_type, "episodic_memory");
  assert.match(narrative.content, /^On 3 March 2025 Alice told Bob/);
  assert.equal(narrative.summary, "Launch review moved");
  assert.equal(narrative.timestamp, "2025-03-03T09:00:00.000Z");
  assert.deepEqual([narrative.group_id, narrative.group_name, narrative.event_id], ["rocket", "Rocket team", closed.event_id]);
  assert.deepEqual(narrative.metadata.messageIds, ["m1", "m2", "m3"]);
  assert.deepEqual(episodic.metadata, { source: "fetch_mem_service", user_id: null, group_id: "rocket", memory_type: "episodic_memory" });
  assert.deepEqual((await fetched({ group_id: "rocket", memory_type: "event_log" })).memories.map((m) => m.content), [FACT]);
  const foresight = (await fetched({ group_id: "rocket", memory_type: "foresight" })).memories;
  assert.deepEqual(foresight.map((m) => [m.content, m.metadata.validUntil]), [["Bob will prepare the review slides by Wednesday", "2025-03-05"]]);
  const profiles = (await fetched({ user_id: "alice", memory_type: "profile" })).memories;
  assert.deepEqual(profiles.map((m) => [m.memory_type, m.user_id, m.group_id]), [["profile", "alice", "rocket"]]);
  assert.match(profiles[0].content, /travel: flying to Berlin/);
});

test("a message sent twice is a duplicate; without group_id a message goes to its sender's default group", T, async () => {
  const again = await call("POST", BASE, { body: message("d1", "2025-03-04T08:00:00Z", "dora", "Hello there", "dora-chat") });
  okResult(again);
  const twice = await call("POST", BASE, { body: message("d1", "2025-03-04T08:00:00Z", "dora", "Hello there", "dora-chat") });
  assert.equal(twice.body.message, "Message already received; nothing changed");
  assert.deepEqual([okResult(twice).duplicate, twice.body.result.pending_messages.length], [true, 1]);

  const alone = okResult(await call("POST", BASE, { body: message("c1", "2025-03-04T08:00:00Z", "carol", "Note to self: buy milk", null) }));
  assert.deepEqual([alone.group_id, alone.status_info, alone.duplicate], ["default:carol", "accumulated", false]);
});

test("bad messages are the conversation API's INVALID_PARAMETER envelope and change nothing", T, async () => {
  const good = message("x1", "2025-03-05T08:00:00Z", "erin", "Hello", "bad-input");
  const bad = [
    { ...good, create_time: undefined },
    { ...good, create_time: "2025-03-05T08:00:00" },
    { ...good, message_id: "  " },
    { ...good, content: "" },
    { ...good, content: 42 },
    { ...good, role: "system" },
    { ...good, mood: "happy" },
    { ...good, message_id: undefined, messageId: "x1" },
  ];
  for (const body of bad) {
    const failed = assertFailed(await call("POST", BASE, { body }), 400, "INVALID_PARAMETER", BASE);
    assert.ok(!("result" in failed));
    // The message names the field as this route takes it (message_id), never the library's messageId,
    // unless the caller sent that name (then it says which was meant).
    if (!("messageId" in body)) assert.doesNotMatch(failed.message, /\b(messageId|createTime|groupId|senderName)\b/, failed.message);
    else assert.match(failed.message, /did you mean `message_id`/);
  }
  const named = async (body) => assertFailed(await call("POST", BASE, { body }), 400, "INVALID_PARAMETER").message;
  assert.match(await named({ ...good, message_id: "  " }), /\bmessage_id\b/);
  assert.match(await named({ ...good, create_time: "2025-03-05T08:00:00" }), /\bcreate_time\b/);
  assertFailed(await call("POST", BASE, { raw: "{not json", headers: { "content-type": "application/json" } }), 400, "INVALID_PARAMETER");
  assertFailed(await call("POST", BASE, { body: [good] }), 400, "INVALID_PARAMETER");
  // Nothing was buffered: the good message is new.
  const stored = okResult(await call("POST", BASE, { body: good }));
  assert.deepEqual([stored.duplicate, stored.pending_messages.map((p) => p.message_id)], [false, ["x1"]]);
});

test("a body over MAX_BODY_BYTES is 413 and a misconfigured service 500, in the conversation API's envelope", T, async (t) => {
  const huge = message("h1", "2025-03-05T08:00:00Z", "erin", "x".repeat((1 << 20) + 10), "big");
  assertFailed(await call("POST", BASE, { body: huge }), 413, "INVALID_PARAMETER", BASE);
  const broken = await startConversationWorker(server, { vars: { MEMORY_TOKENS: "not json" } });
  t.after(() => broken.dispose());
  assertFailed(await broken.call("GET", BASE + query({ group_id: "rocket" })), 500, "SYSTEM_ERROR", BASE);
});

test("unknown routes and methods are RESOURCE_NOT_FOUND", T, async () => {
  assertFailed(await call("GET", `${BASE}/nothing-here`), 404, "RESOURCE_NOT_FOUND", `${BASE}/nothing-here`);
  assertFailed(await call("PUT", BASE, { body: {} }), 404, "RESOURCE_NOT_FOUND");
  assertFailed(await call("DELETE", `${BASE}/search`), 404, "RESOURCE_NOT_FOUND");
  // The trailing slash is the same route.
  assert.equal((await call("GET", `${BASE}/?group_id=rocket`)).status, 200);
});

// POST /api/v1/memories/batch: a GroupChatFormat file (a run_memorize.py batch import). With
// validate_only it is checked and nothing is written; a bad file lists every problem (path, message_id)
// in the conversation API's error envelope and writes nothing; a good one saves the metadata and stores the messages in
// order (a gap extracts an episode, flush=true closes the rest), and a second run finds only duplicates.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, startServer } from "./helpers.mjs";
import { BASE, assertFailed, episode, noBoundary, okResult, query, startConversationWorker } from "./conversations-helpers.mjs";

let server;
let worker;
const BATCH = `${BASE}/batch`;
const call = (...args) => worker.call(...args);
before(async () => {
  server = await startServer();
  worker = await startConversationWorker(server);
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const text = (id, time, sender, content, extra = {}) => ({ message_id: id, create_time: time, sender, type: "text", content, ...extra });
const FILE = {
  version: "1.0.0",
  conversation_meta: {
    scene: "group_chat",
    scene_desc: { description: "Sales assistant project" },
    name: "Smart Sales Assistant Project Group",
    description: "Project development discussion",
    group_id: "sales",
    default_timezone: "UTC",
    user_details: {
      u101: { full_name: "Alex", role: "user", custom_role: "Technical Lead", department: "Technology", email: "alex@example.com" },
      u102: { full_name: "Betty", role: "user", custom_role: "Product Manager" },
    },
    tags: ["AI", "Sales"],
    extra: { source: "export" },
  },
  conversation_list: [
    text("msg_001", "2025-02-01T02:00:00Z", "u102", "Good morning, how is the sales assistant going?", { sender_name: "Betty" }),
    text("msg_002", "2025-02-01T02:01:00Z", "u101", "The MVP runs on RAG with BM25 and vectors.", { refer_list: ["msg_001"] }),
    text("msg_003", "2025-02-01T02:02:00+00:00", "u102", "Then the hit rate target is 0.8.", { refer_list: [{ message_id: "msg_002", content: "…" }] }),
    // 58 minutes later: the gap closes msg_001–msg_003.
    text("msg_004", "2025-02-01T03:00:00Z", "u101", "Source data: product manual v3.2.", { extra: { edited: true } }),
    text("msg_005", "2025-02-01T03:01:00Z", "u102", "Thanks, I will review the manual."),
  ],
};

test("validate_only checks a good file and writes nothing", T, async () => {
  for (const flag of ["validate_only=true", "validateOnly=true"]) {
    const response = await call("POST", `${BATCH}?${flag}`, { body: FILE });
    assert.deepEqual(okResult(response), { valid: true, group_id: "sales", message_count: 5, errors: [] });
    assert.match(response.body.message, /^Validation passed: 5 messages/);
  }
  assertFailed(await call("GET", `${BASE}/conversation-meta?group_id=sales`), 404, "RESOURCE_NOT_FOUND");
  const found = okResult(await call("GET", `${BASE}/search` + query({ query: "sales", group_id: "sales" })));
  assert.deepEqual(found.pending_messages, []);
});

test("a bad file reports every problem and writes nothing, with or without validate_only", T, async () => {
  const list = [
    FILE.conversation_list[0],
    text("b1", "2025-02-01T02:00:00", "u101", "no zone"),
    text("b2", "2025-02-01T02:01:00Z", "stranger", "who am I?"),
    text("b3", "2025-02-01T02:02:00Z", "u101", "https://example.com/cat.png", { type: "image" }),
    text("msg_001", "2025-02-01T02:03:00Z", "u101", "an id used twice"),
    text("b5", "2025-02-01T02:04:00Z", "u101", "with a mood", { mood: "happy" }),
    text("b6", "2025-02-01T02:05:00Z", "u101", "bad reference", { refer_list: [42] }),
    text("b7", "2025-02-01T02:06:00Z", "u101", ""),
  ];
  const bad = { ...FILE, conversation_list: list };
  for (const path of [`${BATCH}?validate_only=true`, BATCH]) {
    const failed = assertFailed(await call("POST", path, { body: bad }), 400, "INVALID_PARAMETER", BATCH);
    assert.match(failed.message, /7 problem/);
    assert.deepEqual(failed.errors.map((e) => [e.path, e.message_id]), [
      ["conversation_list[1]", "b1"], ["conversation_list[2]", "b2"], ["conversation_list[3]", "b3"],
      ["conversation_list[4]", "msg_001"], ["conversation_list[5]", "b5"], ["conversation_list[6]", "b6"],
      ["conversation_list[7]", "b7"],
    ]);
    assert.ok(failed.errors.every((e) => e.message.length > 0));
    assert.match(failed.errors[1].message, /user_details/);
    assert.match(failed.errors[3].message, /appears earlier/);
  }
  const shapes = [
    [{ ...FILE, version: undefined, extra: 1 }, ["extra", "version"]],
    [{ ...FILE, conversation_meta: { ...FILE.conversation_meta, group_id: undefined } }, ["conversation_meta.group_id"]],
    [{ ...FILE, conversation_meta: { ...FILE.conversation_meta, scene: "work" } }, ["conversation_meta"]],
    [{ ...FILE, conversation_list: [] }, ["conversation_list"]],
  ];
  for (const [body, paths] of shapes) {
    const failed = assertFailed(await call("POST", `${BATCH}?validate_only=true`, { body }), 400, "INVALID_PARAMETER");
    assert.deepEqual(failed.errors.map((e) => e.path), paths);
  }
  const noScene = { ...FILE, conversation_meta: { ...FILE.conversation_meta, scene: undefined } };
  assertFailed(await call("POST", `${BATCH}?validate_only=true`, { body: noScene }), 400, "INVALID_PARAMETER");
  assert.equal(okResult(await call("POST", `${BATCH}?validate_only=true&scene=group_chat`, { body: noScene })).valid, true);
  assertFailed(await call("POST", `${BATCH}?validate_only=true&scene=assistant`, { body: FILE }), 400, "INVALID_PARAMETER");
  assertFailed(await call("POST", `${BATCH}?dry_run=true`, { body: FILE }), 400, "INVALID_PARAMETER");
  assertFailed(await call("POST", BATCH, { raw: "{", headers: { "content-type": "application/json" } }), 400, "INVALID_PARAMETER");
  assertFailed(await call("GET", `${BASE}/conversation-meta?group_id=sales`), 404, "RESOURCE_NOT_FOUND");
});

test("a good file saves the metadata and stores every message in order; a rerun finds duplicates", T, async () => {
  server.script([
    noBoundary(),
    episode("hit rate target is 0.8", { title: "Sales assistant status", summary: "On 1 February 2025 Betty and Alex set the MVP's hit rate target to 0.8." }),
    episode("product manual v3.2", { summary: "Alex named the product manual v3.2 as source data; Betty will review it." }),
  ]);
  const response = await call("POST", `${BATCH}?flush=true`, { body: FILE });
  const ran = okResult(response);
  assert.equal(response.body.message, "Stored 5 messages (0 duplicates), extracted 2 memories");
  assert.deepEqual([ran.group_id, ran.message_count, ran.stored, ran.duplicates, ran.count, ran.status_info], ["sales", 5, 5, 0, 2, "extracted"]);
  assert.deepEqual(ran.episodes.map((e) => [e.cause, e.message_ids]), [
    ["gap", ["msg_001", "msg_002", "msg_003"]],
    ["flush", ["msg_004", "msg_005"]],
  ]);
  assert.deepEqual(ran.pending_messages, []);

  const meta = okResult(await call("GET", `${BASE}/conversation-meta?group_id=sales`));
  assert.deepEqual([meta.name, meta.scene, meta.version, meta.created_at], ["Smart Sales Assistant Project Group", "group_chat", "1.0.0", "2025-02-01T02:00:00.000Z"]);
  assert.deepEqual(meta.user_details.u101, { full_name: "Alex", role: "user", custom_role: "Technical Lead", extra: { department: "Technology", email: "alex@example.com" } });
  const episodes = okResult(await call("GET", BASE + query({ group_id: "sales" }))).memories;
  assert.deepEqual(episodes.map((m) => [m.summary, m.group_name]), [
    ["Sales assistant status", "Smart Sales Assistant Project Group"],
    ["Alex named the product manual v3.2 as source data; Betty will review it.", "Smart Sales Assistant Project Group"],
  ]);

  const rerun = okResult(await call("POST", BATCH, { body: FILE }));
  assert.deepEqual([rerun.stored, rerun.duplicates, rerun.count, rerun.status_info], [0, 5, 0, "accumulated"]);
});

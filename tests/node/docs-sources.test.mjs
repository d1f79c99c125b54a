// The blocks of docs/sources.md run as written against the scripted server, with the standard test config as
// `config`; what their comments claim is asserted: the fact followed through ADD → UPDATE keeps both
// messages, the second add with the same idempotencyKey replays with no model call, and a message's name is
// its memory's actor_id.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, addsFor, decision, extraction, scriptedServer, testConfig } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { keepClaimed, runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const [followed, replayed, named] = blocksRunBy("tests/node/docs-sources.test.mjs");

/** Runs `code`; resolves with the values its claiming comments were about. */
async function run(code) {
  const claimed = new Map();
  await runBlock(keepClaimed(code), { Memory, config: testConfig(server), __claimed: claimed });
  return claimed;
}

test("docs/sources.md: a fact followed through ADD and UPDATE keeps both messages", T, async () => {
  assert.equal(followed?.page, "docs/sources.md", "the blocks are marked run by this file");
  server.script([
    extraction("I live in Lyon", ["Lives in Lyon"], { times: 1 }),
    decision("Lives in Lyon", addsFor(["Lives in Lyon"]), { times: 1 }),
    extraction("I moved to Paris", ["Lives in Paris"], { times: 1 }),
    decision("Lives in Paris", [{ id: "0", text: "Lives in Paris", event: "UPDATE", old_memory: "Lives in Lyon" }], { times: 1 }),
  ]);
  const claimed = await run(followed.code);
  // the model updates "Lives in Lyon" to "Lives in Paris"
  const update = claimed.get('the model updates "Lives in Lyon" to "Lives in Paris"');
  assert.deepEqual(update.results.map((e) => [e.event, e.memory]), [["UPDATE", "Lives in Paris"]]);
  // [msg-1 (ADD), msg-9 (UPDATE)]
  const sources = claimed.get("[msg-1 (ADD), msg-9 (UPDATE)]");
  assert.deepEqual(sources.map((s) => `${s.id} (${s.event})`), ["msg-1 (ADD)", "msg-9 (UPDATE)"]);
  assert.deepEqual(sources[0], {
    id: "msg-1", conversationId: "chat-7", role: "user", createdAt: "2024-05-01T09:00:00Z", excerpt: "I live in Lyon",
    event: "ADD", historyId: sources[0].historyId, recordedAt: sources[0].recordedAt,
  });
  assert.equal(sources[1].createdAt, undefined, "no createdAt given, none kept");
  assert.match(sources[1].recordedAt, /^\d{4}-\d{2}-\d{2}T/);
});

test("docs/sources.md: the same chunk added twice with one idempotencyKey replays with no model call", T, async () => {
  server.script([
    extraction("I play chess on Sundays", ["Plays chess on Sundays"], { times: 1 }),
    decision("Plays chess on Sundays", addsFor(["Plays chess on Sundays"]), { times: 1 }),
  ]);
  const before = server.requests().length;
  const code = replayed.code.replace("await memory.add(chunk, options);                   // the same",
    "const calls = __requests();\nawait memory.add(chunk, options);                   // the same");
  const claimed = new Map();
  let between;
  await runBlock(keepClaimed(code), {
    Memory, config: testConfig(server), __claimed: claimed, __requests: () => (between = server.requests().length),
  });
  // {results: [ADD "Plays chess on Sundays"], warnings: []}
  const first = claimed.get('{results: [ADD "Plays chess on Sundays"], warnings: []}');
  assert.deepEqual(first.results.map((e) => [e.event, e.memory]), [["ADD", "Plays chess on Sundays"]]);
  assert.deepEqual([first.warnings, first.replayed], [[], undefined]);
  // the same, with replayed: true, and no model call
  const again = claimed.get("the same, with replayed: true, and no model call");
  assert.deepEqual(again, { ...first, replayed: true });
  assert.ok(between > before, "the first add called the model");
  assert.equal(server.requests().length, between, "the replay made no request");
});

test("docs/sources.md: a message's name is kept as its memory's actor_id, and a filter on it finds what that person said", T, async () => {
  const claimed = await run(named.code);
  // Melanie's turn alone
  const found = claimed.get("Melanie's turn alone").results;
  assert.deepEqual(found.map((m) => [m.memory, m.metadata.actor_id]), [["I painted a lake at dawn", "Melanie"]]);
  // [{ role: "user", name: "Caroline", … }]
  const sources = claimed.get('[{ role: "user", name: "Caroline", … }]');
  assert.deepEqual(sources.map((s) => [s.role, s.name, s.excerpt]), [["user", "Caroline", "I painted my first portrait"]]);
  const memory = new Memory(testConfig(server));
  // "a query that names them raises their turns": the same two turns with and without their names.
  const pair = [{ role: "user", name: "Caroline", content: "Melanie, what did you paint?" }, { role: "user", name: "Melanie", content: "A lake at dawn" }];
  await memory.add(pair, { userId: "named", infer: false });
  await memory.add(pair.map(({ role, content }) => ({ role, content })), { userId: "unnamed", infer: false });
  const answer = async (userId) => (await memory.search("What did Melanie paint?", { userId })).results.find((m) => m.memory === "A lake at dawn").score;
  assert.ok(await answer("named") > await answer("unnamed") + 0.1, "Melanie's turn rises when the query names her");
  await memory.add([{ role: "user", name: " Ann ", content: "hello" }], { userId: "club", infer: false });
  assert.equal((await memory.getAll({ userId: "club" })).results[0].metadata.actor_id, "Ann", "trimmed");
  const rejected = await memory.add([{ role: "user", content: "x" }, { role: "user", name: "", content: "y" }], { userId: "club", infer: false })
    .then(() => assert.fail("a blank name is refused"), (error) => error);
  assert.equal(rejected.code, "INVALID_INPUT");
  assert.match(rejected.message, /messages\[1\]\.name/);
  assert.equal((await memory.getAll({ userId: "club" })).results.length, 1, "nothing of the refused call is stored");
});

// memory.importConversations of each export the fixtures hold (tests/fixtures/import, built from the documented
// shapes): ChatGPT's (the kept branch of an edited conversation, system/tool/hidden messages and an image left
// out, an empty conversation reported), Claude's (attachments and thinking left out), mem0's (memories as
// they are, their ids as sources) and memwasm's own; the scripted LLM finds the facts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { EXTRACT, T, makeMemory, rejectsWith, scriptedServer, texts } from "./helpers.mjs";
import { parseChatgpt } from "../../pkg/import/chatgpt.mjs";
import { FACTS, contents, fixture, scriptFacts } from "./import-support.mjs";

const server = scriptedServer();
const alice = { userId: "alice" };
const prompts = () => server.requests("chat").map((r) => r.text).join("\n");

describe("ChatGPT's conversations.json", () => {
  test("the kept branch of each conversation, in time order, with the messages' ids, times and sources", T, async () => {
    scriptFacts(server);
    const memory = makeMemory(server);
    const report = await memory.importConversations(fixture("chatgpt-conversations.json"), alice);
    assert.deepEqual(report, {
      format: "chatgpt", conversations: 2, messages: 6, chunks: 2, replayed: 0, facts: 3, deleted: 0, modelCalls: 4,
      skipped: [{ conversationId: "conv-empty", why: "no messages" }], skippedMessages: 4, skippedParts: 1,
    });
    const sent = prompts();
    for (const left of ["vegetarian", "measure_desk", "desk: 140 cm", "You are a helpful assistant.", "file-service://"]) {
      assert.ok(!sent.includes(left), `${left} was not sent to the LLM`);
    }
    const extractions = server.requests("chat").filter((r) => r.text.includes(EXTRACT));
    assert.ok(extractions[0].text.includes("translator"), "the older conversation (July 2023) goes first");
    assert.deepEqual(await contents(memory, alice), [
      { memory: "Is vegan", eventTime: "2023-11-14T22:18:30.000Z", sources: ["m-a1", "m-a2-kept", "m-u1", "m-u2-kept"] },
      { memory: "Plans a trip to Lisbon in May", eventTime: "2023-11-14T22:18:30.000Z", sources: ["m-a1", "m-a2-kept", "m-u1", "m-u2-kept"] },
      { memory: "Works from home as a translator", eventTime: "2023-07-22T04:26:48.000Z", sources: ["dm-a2", "dm-u1"] },
    ]);
    const vegan = (await memory.getAll(alice)).results.find((m) => m.memory === "Is vegan");
    const source = (await memory.sources(vegan.id)).find((s) => s.id === "m-u2-kept");
    assert.deepEqual([source.conversationId, source.role, source.createdAt, source.excerpt],
      ["conv-lisbon", "user", "2023-11-14T22:18:20.000Z", "Actually I am vegan, any food tips?"]);
  });

  test("without current_node, the newest child at each step down from the root", () => {
    const archive = JSON.parse(fixture("chatgpt-conversations.json")).slice(0, 1);
    delete archive[0].current_node;
    const [lisbon] = parseChatgpt(archive);
    assert.deepEqual(lisbon.messages.map((m) => m.id), ["m-u1", "m-a1", "m-u2-kept", "m-a2-kept"]);
  });

  test("a malformed conversation is IMPORT_FORMAT naming it, before anything is added or sent", T, async () => {
    scriptFacts(server);
    const memory = makeMemory(server);
    await rejectsWith(() => memory.importConversations(fixture("chatgpt-malformed.json"), alice), "IMPORT_FORMAT", (error) => {
      assert.match(error.message, /conversation 1 \(id "conv-broken"\): `current_node` "d-missing" is not a node of `mapping`/);
    });
    assert.equal((await memory.getAll(alice)).results.length, 0);
    assert.equal(server.count("chat") + server.count("embedding"), 0);
  });

  test("other faults name the conversation, the node or the field", T, async () => {
    const memory = makeMemory(server);
    const archive = JSON.parse(fixture("chatgpt-conversations.json"));
    const cases = [
      [(a) => void (a[1].mapping["d-a2"].parent = "d-a2"), /conversation 1 \(id "conv-desk"\): the parents of node "d-a2" go round/],
      [(a) => void (a[0].mapping["n-u1"].message.author = {}), /conversation 0 \(id "conv-lisbon"\): message of node "n-u1" has no `author.role`/],
      [(a) => void (a[0].mapping["n-u1"].message.create_time = "yesterday"), /`create_time` is not epoch seconds/],
      [(a) => void (a[2] = "hello"), /conversation 2: not an object/],
      [(a) => void delete a[1].mapping, /conversation 1 \(id "conv-desk"\): `mapping` is not an object/],
    ];
    for (const [spoil, message] of cases) {
      const copy = structuredClone(archive);
      spoil(copy);
      await rejectsWith(() => memory.importConversations(copy, { ...alice, format: "chatgpt" }), "IMPORT_FORMAT", (e) => assert.match(e.message, message));
    }
    await rejectsWith(() => memory.importConversations("{not json", alice), "IMPORT_FORMAT", (e) => assert.match(e.message, /not JSON/));
    await rejectsWith(() => memory.importConversations({ hello: 1 }, alice), "IMPORT_FORMAT", (e) => assert.match(e.message, /not an export this importer knows/));
  });
});

describe("Claude's conversations.json", () => {
  test("human and assistant text in order; attachments, files and thinking left out; the empty one reported", T, async () => {
    scriptFacts(server);
    const memory = makeMemory(server);
    const report = await memory.importConversations(fixture("claude-conversations.json"), alice);
    assert.deepEqual(report, {
      format: "claude", conversations: 1, messages: 4, chunks: 1, replayed: 0, facts: 2, deleted: 0, modelCalls: 2,
      skipped: [{ conversationId: "c-empty", why: "no messages" }], skippedMessages: 0, skippedParts: 3,
    });
    const sent = prompts();
    for (const left of ["Row 1: cherry tomatoes", "The user has a balcony.", "pots.jpg"]) assert.ok(!sent.includes(left), `${left} was not sent`);
    const ids = ["cm-1", "cm-2", "cm-3", "cm-4"];
    assert.deepEqual(await contents(memory, alice), [
      { memory: "Grows tomatoes on a balcony in Berlin", eventTime: "2024-03-01T09:10:30.000Z", sources: ids },
      { memory: "Has a cat called Miso", eventTime: "2024-03-01T09:10:30.000Z", sources: ids },
    ]);
    const miso = (await memory.getAll(alice)).results.find((m) => m.memory === "Has a cat called Miso");
    const human = (await memory.sources(miso.id)).find((s) => s.id === "cm-3");
    assert.deepEqual([human.role, human.conversationId, human.createdAt], ["user", "c-garden", "2024-03-01T09:10:00.000Z"]);
  });

  test("a message with no sender is IMPORT_FORMAT naming the conversation and the message", T, async () => {
    const archive = JSON.parse(fixture("claude-conversations.json"));
    delete archive[0].chat_messages[2].sender;
    await rejectsWith(() => makeMemory(server).importConversations(archive, alice), "IMPORT_FORMAT",
      (e) => assert.match(e.message, /conversation 0 \(id "c-garden"\): chat_messages\[2\] has no `sender`/));
  });
});

describe("memories from mem0 and memwasm", () => {
  test("a mem0 export: each memory as it is (no LLM), in its own user's scope, its mem0 id as its source", T, async () => {
    const memory = makeMemory(server);
    const report = await memory.importConversations(fixture("mem0-export.json"));
    assert.deepEqual(report, { format: "mem0", conversations: 0, messages: 2, chunks: 2, replayed: 0, facts: 2, deleted: 0, skipped: [], modelCalls: 0 });
    assert.equal(server.count("chat"), 0);
    const all = (await memory.getAll({ userId: "jordan" })).results;
    assert.deepEqual(texts(all), ["Allergic to peanuts", "Prefers window seats on long flights"]);
    const seats = all.find((m) => m.memory.startsWith("Prefers"));
    assert.deepEqual([seats.metadata.source, seats.metadata.categories], ["onboarding", ["travel"]]);
    const [source] = await memory.sources(seats.id);
    assert.deepEqual([source.id, source.createdAt], ["7d2f4c1e-1111-4a5b-9c3d-000000000001", "2024-05-01T17:00:00.000Z"]);
    const again = await memory.importConversations(fixture("mem0-export.json"));
    assert.deepEqual([again.replayed, again.facts, (await memory.getAll({ userId: "jordan" })).results.length], [2, 0, 2]);
  });

  test("a mem0 export into the scope the import names", T, async () => {
    const memory = makeMemory(server);
    await memory.importConversations(fixture("mem0-export.json"), alice);
    assert.equal((await memory.getAll(alice)).results.length, 2);
    assert.equal((await memory.getAll({ userId: "jordan" })).results.length, 0);
  });

  test("a memwasm export goes back through importMemories, ids kept, again replacing the same memories", T, async () => {
    const memory = makeMemory(server);
    const text = fixture("memwasm-export.jsonl");
    const report = await memory.importConversations(text, { format: "auto" });
    assert.deepEqual([report.format, report.memories, report.history, report.modelCalls], ["memwasm", 2, 2, 0]);
    await memory.importConversations(new TextEncoder().encode(text));
    const all = (await memory.getAll({ userId: "robin" })).results;
    assert.deepEqual(all.map((m) => m.id).sort(), ["0b7e6f0a-2c1d-4e5f-8a9b-000000000001", "0b7e6f0a-2c1d-4e5f-8a9b-000000000002"]);
    assert.equal(server.count("chat"), 0);
  });
});

test("an import's memories exported and imported into another memory keep their sources", T, async () => {
  scriptFacts(server);
  const memory = makeMemory(server);
  await memory.importConversations(fixture("claude-conversations.json"), alice);
  const copy = makeMemory(server);
  const report = await copy.importConversations(await memory.exportMemories(alice));
  assert.deepEqual([report.format, report.memories], ["memwasm", 2]);
  assert.deepEqual(await contents(copy, alice), await contents(memory, alice));
});

test("every fact the fixtures' user messages hold was scripted once", () => {
  const all = ["chatgpt-conversations.json", "claude-conversations.json"].map(fixture).join("\n");
  for (const [words] of FACTS) assert.ok(all.includes(words), words);
});

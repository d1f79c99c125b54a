// CRUD behaviour and history.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  T,
  DECIDE,
  EXTRACT,
  UUID_V4,
  ISO_8601,
  md5,
  sleep,
  makeMemory,
  extraction,
  decision,
  addsFor,
  seed,
  idOf,
  texts,
  chatCalls,
  userContent,
  assertAddResult,
  rejectsWith,
  scriptedServer,
} from "./helpers.mjs";

const server = scriptedServer();

/** Assert a MemoryItem's documented shape and values. */
function assertItem(item, { memory, userId, agentId, runId, metadata = {} }) {
  assert.ok(item, "expected a memory item");
  assert.match(item.id, UUID_V4);
  assert.equal(item.memory, memory);
  assert.equal(item.hash, md5(memory));
  assert.deepEqual(item.metadata, metadata);
  assert.match(item.createdAt, ISO_8601);
  assert.match(item.updatedAt, ISO_8601);
  assert.ok(!Number.isNaN(Date.parse(item.createdAt)), `createdAt ${item.createdAt}`);
  assert.equal(item.userId, userId);
  assert.equal(item.agentId, agentId);
  assert.equal(item.runId, runId);
}

describe("add", () => {
  test("a single fact becomes one ADD event and one stored memory (case 1)", T, async () => {
    const mem = makeMemory(server);
    server.script([
      extraction("My name is Bob", ["User's name is Bob"]),
      decision("User's name is Bob", addsFor(["User's name is Bob"])),
    ]);
    const res = await mem.add("My name is Bob", { userId: "bob" });
    assertAddResult(res);
    assert.deepEqual(res.warnings, []);
    assert.equal(res.results.length, 1);
    const [ev] = res.results;
    assert.equal(ev.event, "ADD");
    assert.match(ev.id, UUID_V4);
    assert.equal(ev.memory, "User's name is Bob");
    assert.equal(ev.newMemory, "User's name is Bob");

    const [extract] = chatCalls(server, EXTRACT);
    assert.equal(userContent(extract), "## New Messages\nuser: My name is Bob");
    assertItem(await mem.get(ev.id), { memory: "User's name is Bob", userId: "bob" });
  });

  test("a conversation yields several ADD events, rendered as role: content lines (case 2)", T, async () => {
    const mem = makeMemory(server);
    const facts = ["User's name is Alice", "User loves hiking", "User hikes in the Alps"];
    server.script([extraction("Mostly in the Alps", facts), decision(facts, addsFor(facts))]);
    const res = await mem.add(
      [
        { role: "user", content: "I'm Alice and I love hiking" },
        { role: "assistant", content: "Nice! Where do you hike?" },
        { role: "user", content: "Mostly in the Alps" },
      ],
      { userId: "alice" },
    );
    assertAddResult(res);
    assert.deepEqual(res.results.map((e) => e.event), ["ADD", "ADD", "ADD"]);
    assert.deepEqual(texts(res.results), [...facts].sort());
    const [extract] = chatCalls(server, EXTRACT);
    assert.equal(
      userContent(extract),
      "## New Messages\nuser: I'm Alice and I love hiking\nassistant: Nice! Where do you hike?\nuser: Mostly in the Alps",
    );
    const all = await mem.getAll({ userId: "alice" });
    assert.deepEqual(texts(all.results), [...facts].sort());
  });

  test("input without facts gives empty results and stores nothing (case 3)", T, async () => {
    const mem = makeMemory(server);
    const res = await mem.add("hello", { userId: "x" }); // unmatched chat -> {"facts":[]}
    assertAddResult(res);
    assert.deepEqual(res.results, []);
    assert.deepEqual(res.warnings, []);
    assert.equal(chatCalls(server, EXTRACT).length, 1);
    assert.equal(chatCalls(server, DECIDE).length, 0, "no decision call without facts");
    assert.deepEqual((await mem.getAll({ userId: "x" })).results, []);
  });

  test("caller metadata is stored on each memory and echoed on events", T, async () => {
    const mem = makeMemory(server);
    const res = await seed(mem, server, ["User likes tea", "User owns a bike"], { userId: "m" }, {
      metadata: { source: "chat", nested: { level: 2 } },
    });
    for (const ev of res.results) assert.deepEqual(ev.metadata, { source: "chat", nested: { level: 2 } });
    for (const item of (await mem.getAll({ userId: "m" })).results)
      assertItem(item, { memory: item.memory, userId: "m", metadata: { source: "chat", nested: { level: 2 } } });
  });
});

describe("search / get / getAll", () => {
  test("semantic search finds a related memory with score > 0.5 (case 4)", T, async () => {
    const mem = makeMemory(server);
    server.script({ kind: "concept", words: ["python", "programming", "languages"] });
    await seed(mem, server, ["User likes Python", "User enjoys gardening"], { userId: "u" });
    const before = server.count("embedding");
    // method "vector": this case is about semantic (cosine) scores; hybrid adds a keyword part it has none of
    const { results } = await mem.search("programming languages", { userId: "u", method: "vector" });
    assert.equal(server.count("embedding"), before + 1, "one embedding request per search");
    assert.equal(results[0].memory, "User likes Python");
    assert.ok(results[0].score > 0.5, `score ${results[0].score}`);
    for (let i = 1; i < results.length; i++) assert.ok(results[i - 1].score >= results[i].score, "sorted by score");
    const garden = results.find((r) => r.memory === "User enjoys gardening");
    if (garden) assert.ok(garden.score < 0.5, `unrelated score ${garden.score}`);
    assertItem({ ...results[0], score: undefined }, { memory: "User likes Python", userId: "u" });
    assert.equal(typeof results[0].score, "number");
  });

  test("search honours limit (case 5) and threshold", T, async () => {
    const mem = makeMemory(server);
    const facts = ["User likes red", "User likes blue", "User likes green", "User likes black", "User likes white"];
    await seed(mem, server, facts, { userId: "u" });
    assert.equal((await mem.search("likes colours", { userId: "u", limit: 3 })).results.length, 3);
    assert.equal((await mem.search("likes colours", { userId: "u" })).results.length, 5);
    const exact = await mem.search("User likes green", { userId: "u", threshold: 0.9 });
    assert.deepEqual(texts(exact.results), ["User likes green"]);
    for (const r of exact.results) assert.ok(r.score >= 0.9);
  });

  test("get returns the item (case 6); unknown ids give null (case 7)", T, async () => {
    const mem = makeMemory(server);
    const res = await seed(mem, server, ["User plays chess"], { userId: "g", agentId: "coach" });
    const item = await mem.get(res.results[0].id);
    assertItem(item, { memory: "User plays chess", userId: "g", agentId: "coach" });
    assert.equal(item.score, undefined, "no score outside search");
    assert.equal(await mem.get("fake-id"), null);
    assert.equal(await mem.get("0b0e5d0c-7c7a-4a8e-9d38-3f8e6c1b2a90"), null);
  });

  test("getAll returns every memory of the scope in creation order (case 8) and honours limit", T, async () => {
    const mem = makeMemory(server);
    for (const fact of ["User likes apples", "User likes pears", "User likes plums"])
      await seed(mem, server, [fact], { userId: "alice" });
    await seed(mem, server, ["User likes figs"], { userId: "bob" });
    const all = await mem.getAll({ userId: "alice" });
    assert.deepEqual(all.results.map((r) => r.memory), ["User likes apples", "User likes pears", "User likes plums"]);
    for (const r of all.results) assert.equal(r.userId, "alice");
    const two = await mem.getAll({ userId: "alice", limit: 2 });
    assert.deepEqual(two.results.map((r) => r.memory), ["User likes apples", "User likes pears"]);
  });
});

describe("default limits", () => {
  test("getAll and search return at most 100 results unless limit says otherwise", T, async () => {
    const mem = makeMemory(server);
    const messages = Array.from({ length: 105 }, (_, i) => ({ role: "user", content: `note number ${i}` }));
    const res = await mem.add(messages, { userId: "many", infer: false });
    assert.equal(res.results.length, 105);
    assert.equal((await mem.getAll({ userId: "many" })).results.length, 100);
    assert.equal((await mem.getAll({ userId: "many", limit: 200 })).results.length, 105);
    assert.equal((await mem.search("note", { userId: "many" })).results.length, 100);
    assert.equal((await mem.search("note", { userId: "many", limit: 105 })).results.length, 105);
  });
});

describe("update / delete / deleteAll / reset", () => {
  test("update overwrites text, hash, updatedAt and the embedding (cases 9–10)", T, async () => {
    const mem = makeMemory(server);
    const res = await seed(mem, server, ["User likes Java"], { userId: "u" });
    const id = res.results[0].id;
    const before = await mem.get(id);
    await sleep(15);
    assert.deepEqual(await mem.update(id, "new text"), { message: "Memory updated successfully!" });
    const after = await mem.get(id);
    assert.equal(after.memory, "new text");
    assert.equal(after.hash, md5("new text"));
    assert.equal(after.createdAt, before.createdAt);
    assert.ok(Date.parse(after.updatedAt) > Date.parse(before.updatedAt), `${after.updatedAt} > ${before.updatedAt}`);
    assert.equal(after.userId, "u");
    const embedded = server.requests("embedding").flatMap((r) => r.body.input);
    assert.ok(embedded.includes("new text"), "update re-embeds the new text");
    const found = await mem.search("new text", { userId: "u" });
    assert.equal(found.results[0].id, id);
    assert.ok(found.results[0].score > 0.99, `re-embedded: score ${found.results[0].score}`);
  });

  test("update and delete of unknown ids reject NOT_FOUND", T, async () => {
    const mem = makeMemory(server);
    await rejectsWith(() => mem.update("no-such-id", "x"), "NOT_FOUND");
    await rejectsWith(() => mem.delete("no-such-id"), "NOT_FOUND");
  });

  test("delete removes the memory (case 11)", T, async () => {
    const mem = makeMemory(server);
    const res = await seed(mem, server, ["User likes cats", "User likes dogs"], { userId: "u" });
    const cats = idOf(res.results, "User likes cats");
    assert.deepEqual(await mem.delete(cats), { message: "Memory deleted successfully!" });
    assert.equal(await mem.get(cats), null);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User likes dogs"]);
    assert.ok(!(await mem.search("cats", { userId: "u" })).results.some((r) => r.id === cats));
    await rejectsWith(() => mem.delete(cats), "NOT_FOUND");
  });

  test("deleteAll empties only the given scope and logs DELETE per memory (case 12)", T, async () => {
    const mem = makeMemory(server);
    const a = await seed(mem, server, ["User likes maps", "User likes globes"], { userId: "alice" });
    await seed(mem, server, ["User likes atlases"], { userId: "bob" });
    assert.deepEqual(await mem.deleteAll({ userId: "alice" }), { message: "Memories deleted successfully!" });
    assert.deepEqual((await mem.getAll({ userId: "alice" })).results, []);
    assert.deepEqual(texts((await mem.getAll({ userId: "bob" })).results), ["User likes atlases"]);
    for (const ev of a.results) {
      const hist = await mem.history(ev.id);
      assert.deepEqual(hist.map((h) => h.event), ["ADD", "DELETE"]);
      assert.equal(hist[1].isDeleted, true);
      assert.equal(hist[1].oldValue, ev.memory);
    }
    await rejectsWith(() => mem.deleteAll({}), "SCOPE_REQUIRED");
  });

  test("reset clears all memories and history; the instance stays usable (case 13)", T, async () => {
    const mem = makeMemory(server);
    const a = await seed(mem, server, ["User likes sailing"], { userId: "alice" });
    await seed(mem, server, ["User likes rowing"], { runId: "r1" });
    await mem.reset();
    assert.deepEqual((await mem.getAll({ userId: "alice" })).results, []);
    assert.deepEqual((await mem.getAll({ runId: "r1" })).results, []);
    assert.equal(await mem.get(a.results[0].id), null);
    assert.deepEqual(await mem.history(a.results[0].id), []);
    assert.deepEqual((await mem.search("sailing", { userId: "alice" })).results, []);
    await seed(mem, server, ["User likes sailing"], { userId: "alice" });
    assert.equal((await mem.getAll({ userId: "alice" })).results.length, 1);
  });
});

describe("history", () => {
  test("ADD creates one history record (case 23)", T, async () => {
    const mem = makeMemory(server);
    const res = await seed(mem, server, ["User likes opera"], { userId: "h", agentId: "ag" });
    const hist = await mem.history(res.results[0].id);
    assert.equal(hist.length, 1);
    const [h] = hist;
    assert.equal(typeof h.id, "string");
    assert.notEqual(h.id, res.results[0].id);
    assert.equal(h.memoryId, res.results[0].id);
    assert.equal(h.event, "ADD");
    assert.equal(h.oldValue, null);
    assert.equal(h.newValue, "User likes opera");
    assert.equal(h.isDeleted, false);
    assert.match(h.timestamp, ISO_8601);
    assert.equal(h.userId, "h");
    assert.equal(h.agentId, "ag");
  });

  test("update appends, delete marks isDeleted, order is chronological, history survives delete (cases 24–26)", T, async () => {
    const mem = makeMemory(server);
    const res = await seed(mem, server, ["User likes v1"], { userId: "h" });
    const id = res.results[0].id;
    await sleep(5);
    await mem.update(id, "User likes v2");
    await sleep(5);
    await mem.update(id, "User likes v3");
    await sleep(5);
    await mem.delete(id);
    const hist = await mem.history(id);
    assert.deepEqual(hist.map((h) => h.event), ["ADD", "UPDATE", "UPDATE", "DELETE"]);
    assert.deepEqual(hist.map((h) => [h.oldValue, h.newValue]), [
      [null, "User likes v1"],
      ["User likes v1", "User likes v2"],
      ["User likes v2", "User likes v3"],
      ["User likes v3", null],
    ]);
    assert.deepEqual(hist.map((h) => h.isDeleted), [false, false, false, true]);
    for (const h of hist) assert.equal(h.memoryId, id);
    const times = hist.map((h) => Date.parse(h.timestamp));
    for (let i = 1; i < times.length; i++) assert.ok(times[i - 1] <= times[i], "ascending timestamps");
    assert.equal(new Set(hist.map((h) => h.id)).size, 4, "distinct history ids");
  });

  test("history of an unknown id is empty", T, async () => {
    const mem = makeMemory(server);
    assert.deepEqual(await mem.history("nope"), []);
  });
});

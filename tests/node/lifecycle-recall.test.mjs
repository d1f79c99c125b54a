// Memory lifecycle: memory types and recall. add() routes preference facts ("prefers", "always", "hate",
// "favorite", …) to `procedural` and other facts to `semantic` unless `memoryType` is given; search, getAll and
// recall take `memoryTypes`; recall drops memories less important than 0.2 (pinned and procedural ones
// exempt) and orders procedural, then pinned, then the rest.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, extraction, decision, addsFor, seed, texts, rejectsWith, scriptedServer, asFacts } from "./helpers.mjs";

const server = scriptedServer();

const TYPES = ["semantic", "episodic", "procedural", "working", "profile", "foresight", "event_log"];

/** Adds `text` verbatim for user `u`; returns its id. */
async function remember(mem, text, options = {}) {
  const res = await mem.add(text, { userId: "u", infer: false, ...options });
  assert.equal(res.results.length, 1, JSON.stringify(res));
  return res.results[0].id;
}

/** memoryType of every memory of user `u`, by text. */
async function typesByText(mem, scope = { userId: "u" }) {
  const { results } = await mem.getAll(scope);
  return Object.fromEntries(results.map((m) => [m.memory, m.memoryType]));
}

describe("type routing of add()'s facts", () => {
  test("preferences become procedural, other facts semantic", T, async () => {
    const mem = makeMemory(server);
    const preferences = [
      "User prefers dark mode",
      "User always writes tests first",
      "User hates long meetings",
      "User's favorite editor is Helix",
      "User dislikes emoji",
      "User can't stand spam calls",
      "User never drinks coffee after 4pm",
    ];
    const others = ["User works at Acme", "User lives in Berlin", "User visited Alwaysland"];
    await seed(mem, server, [...preferences, ...others], { userId: "u" });
    const expected = Object.fromEntries([
      ...preferences.map((text) => [text, "procedural"]),
      ...others.map((text) => [text, "semantic"]),
    ]);
    assert.deepEqual(await typesByText(mem), expected);
  });

  test("memoryType (or memory_type) sets the type of every fact of the call", T, async () => {
    const mem = makeMemory(server);
    const facts = ["User prefers window seats", "User flew to Lisbon"];
    await seed(mem, server, facts, { userId: "u", memoryType: "episodic" });
    assert.deepEqual(await typesByText(mem), { [facts[0]]: "episodic", [facts[1]]: "episodic" });
    await remember(mem, "Meeting at 10 moved to 11", { memory_type: "event_log" });
    assert.equal((await typesByText(mem))["Meeting at 10 moved to 11"], "event_log");
  });

  test("every documented type can be given, counted by stats().byType; unknown ones are INVALID_INPUT", T, async () => {
    const mem = makeMemory(server);
    for (const type of TYPES) await remember(mem, `a ${type} memory`, { memoryType: type });
    const { byType } = await mem.stats({ userId: "u" });
    assert.deepEqual(byType, Object.fromEntries(TYPES.map((type) => [type, 1])));
    for (const bad of ["Semantic", "eventlog", "", 3]) {
      await rejectsWith(() => mem.add("nope", { userId: "u", infer: false, memoryType: bad }), "INVALID_INPUT");
    }
    assert.equal((await mem.stats()).totalEntries, TYPES.length, "nothing stored by the refused calls");
  });
});

describe("memoryTypes filters", () => {
  async function typed() {
    const mem = makeMemory(server);
    await remember(mem, "User prefers green tea");
    await remember(mem, "User drank green tea in Kyoto", { memoryType: "episodic" });
    await remember(mem, "Green tea contains caffeine");
    return mem;
  }

  test("search, getAll and recall keep only the types asked for", T, async () => {
    const mem = await typed();
    const search = await mem.search("green tea", { userId: "u", memoryTypes: ["episodic", "semantic"] });
    assert.deepEqual(texts(search.results), ["Green tea contains caffeine", "User drank green tea in Kyoto"]);
    assert.equal(search.totalCount, 2);
    const all = await mem.getAll({ userId: "u", memoryTypes: ["procedural"] });
    assert.deepEqual(texts(all.results), ["User prefers green tea"]);
    assert.equal(all.totalCount, 1);
    const recalled = await mem.recall("green tea", { userId: "u", memoryTypes: ["episodic"] });
    assert.deepEqual(texts(recalled.memories), ["User drank green tea in Kyoto"], "no procedural memory forced in");
    assert.equal(recalled.text, "<memory>\n[EPISODIC] User drank green tea in Kyoto\n</memory>");
    const none = await mem.getAll({ userId: "u", memoryTypes: [] });
    assert.deepEqual(none, { results: [], totalCount: 0, hasMore: false });
  });

  test("an unknown type, a non-list, or memoryTypes on a call that does not take it is INVALID_INPUT", T, async () => {
    const mem = await typed();
    await rejectsWith(() => mem.search("tea", { userId: "u", memoryTypes: ["habit"] }), "INVALID_INPUT");
    await rejectsWith(() => mem.getAll({ userId: "u", memoryTypes: "semantic" }), "INVALID_INPUT");
    await rejectsWith(() => mem.recall("tea", { userId: "u", memory_types: ["nope"] }), "INVALID_INPUT");
    await rejectsWith(() => mem.deleteAll({ userId: "u", memoryTypes: ["semantic"] }), "INVALID_INPUT");
    assert.equal((await mem.stats()).totalEntries, 3, "the refused deleteAll deleted nothing");
  });
});

describe("recall and importance", () => {
  test("recall drops memories below 0.2 unless pinned or procedural, and orders procedural, pinned, rest", T, async () => {
    const mem = makeMemory(server);
    await remember(mem, "tea fact important", { importance: 0.9 });
    await remember(mem, "tea fact trivial", { importance: 0.19 });
    await remember(mem, "tea fact at the line", { importance: 0.2 });
    await remember(mem, "tea pinned note", { importance: 0.05, pinned: true });
    await remember(mem, "User prefers tea without sugar", { importance: 0.05 });
    const recalled = await mem.recall("tea", { userId: "u", method: "keyword", limit: 10 });
    const order = recalled.memories.map((m) => m.memory);
    assert.deepEqual(order.slice(0, 2), ["User prefers tea without sugar", "tea pinned note"]);
    assert.deepEqual(order.slice(2).sort(), ["tea fact at the line", "tea fact important"]);
    assert.ok(!recalled.text.includes("trivial"), recalled.text);
    assert.match(recalled.text, /^<memory>\n\[PROCEDURAL\] User prefers tea without sugar\n\[SEMANTIC\] tea pinned note\n/);
    const search = await mem.search("tea", { userId: "u", method: "keyword" });
    assert.equal(search.results.length, 5, "search itself does not filter by importance");
  });

  // BUG: recall() searches for limit · 4 candidates and only then drops those below importance 0.2
  // (src/core/recall.rs, recall(): `ranked.retain(…)` after `self.search(query, &search)`), so when the best
  // matches are unimportant it recalls nothing although an important memory matches. The importance filter
  // belongs in the search's `keep` (or the search must fetch more until `limit` memories pass).
  test("unimportant top matches do not crowd an important match out of recall", T, async () => {
    const mem = makeMemory(server);
    for (const n of [1, 2, 3, 4]) await remember(mem, `tea tea tea trivial ${n}`, { importance: 0.1 });
    await remember(mem, "tea matters", { importance: 0.9 });
    // Facts, not turns: as a turn, "tea matters" would be read with "tea tea tea trivial 4" before it
    // (tf 4) and rank first, so no unimportant match would crowd it out.
    await asFacts(mem, { userId: "u" });
    const ranked = await mem.search("tea", { userId: "u", method: "keyword" });
    assert.equal(ranked.results.at(-1).memory, "tea matters", "ranked last by BM25");
    const recalled = await mem.recall("tea", { userId: "u", method: "keyword", limit: 1 });
    assert.deepEqual(recalled.memories.map((m) => m.memory), ["tea matters"]);
  });

  test("procedural memories the query does not match are still recalled first", T, async () => {
    const mem = makeMemory(server);
    await remember(mem, "User always answers in French", { importance: 0.01 });
    await remember(mem, "User owns a sailboat", { importance: 0.9 });
    const recalled = await mem.recall("sailboat", { userId: "u", method: "keyword" });
    assert.deepEqual(recalled.memories.map((m) => m.memory), ["User always answers in French", "User owns a sailboat"]);
    assert.equal(recalled.memories[0].memoryType, "procedural");
  });

  test("a pinned memory is recalled before a more relevant unpinned one", T, async () => {
    const mem = makeMemory(server);
    await remember(mem, "bike bike bike repair shop", { importance: 0.9 });
    const pinned = await remember(mem, "bike lock code", { importance: 0.9 });
    let recalled = await mem.recall("bike", { userId: "u", method: "keyword" });
    assert.deepEqual(recalled.memories.map((m) => m.memory), ["bike bike bike repair shop", "bike lock code"]);
    await mem.pin(pinned);
    recalled = await mem.recall("bike", { userId: "u", method: "keyword" });
    assert.deepEqual(recalled.memories.map((m) => m.memory), ["bike lock code", "bike bike bike repair shop"]);
  });

  test("an extracted preference of importance 0 is still recalled", T, async () => {
    const mem = makeMemory(server);
    const fact = "User prefers short answers";
    server.script([extraction("short answers please", [fact]), decision(fact, addsFor([fact]))]);
    await mem.add("short answers please", { userId: "u", importance: 0 });
    const recalled = await mem.recall("weather tomorrow", { userId: "u", method: "keyword" });
    assert.deepEqual(recalled.memories.map((m) => m.memory), [fact]);
  });
});

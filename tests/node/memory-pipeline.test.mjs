// The LLM pipeline: update intelligence, batching, decision ids,
// reply formats, infer:false and custom prompts (case 39).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  T,
  DECIDE,
  EXTRACT,
  md5,
  makeMemory,
  extraction,
  decision,
  addsFor,
  seed,
  idOf,
  texts,
  chatCalls,
  userContent,
  decisionPayload,
  assertAddResult,
  warningCodes,
  scriptedServer,
} from "./helpers.mjs";

const server = scriptedServer();

const sortedInputs = (req) => [...req.body.input].sort();

describe("update intelligence", () => {
  test("re-adding an existing fact gives NONE without a decision call or embedding (exact pipeline; case 14)", T, async () => {
    const mem = makeMemory(server, { pipeline: "exact" });
    server.script([
      extraction("I like Python", ["User likes Python"]),
      decision("User likes Python", addsFor(["User likes Python"]), { times: 1 }),
    ]);
    const first = await mem.add("I like Python", { userId: "u" });
    const id = first.results[0].id;
    const chats = server.count("chat");
    const embeds = server.count("embedding");
    const second = await mem.add("I like Python", { userId: "u" });
    assertAddResult(second);
    assert.deepEqual(second.results.map((e) => [e.event, e.id, e.memory]), [["NONE", id, "User likes Python"]]);
    assert.equal(server.count("chat"), chats + 1, "only the extraction call");
    assert.equal(server.count("embedding"), embeds, "no embedding for an exact duplicate");
    assert.equal((await mem.getAll({ userId: "u" })).results.length, 1);
    assert.deepEqual((await mem.history(id)).map((h) => h.event), ["ADD"]);
  });

  test("a contradiction UPDATEs NYC to San Francisco, shown to the LLM under a temp id (case 15)", T, async () => {
    const mem = makeMemory(server);
    server.script({ kind: "concept", words: ["nyc", "san", "francisco"] });
    const nycId = (await seed(mem, server, ["User lives in NYC"], { userId: "u" })).results[0].id;
    server.script([
      extraction("I moved to San Francisco", ["User moved to San Francisco"]),
      decision("User moved to San Francisco", [
        { id: "0", text: "User lives in San Francisco", event: "UPDATE", old_memory: "User lives in NYC" },
      ]),
    ]);
    const res = await mem.add("I moved to San Francisco", { userId: "u" });
    assertAddResult(res);
    assert.deepEqual(res.warnings, []);
    assert.equal(res.results.length, 1);
    const [ev] = res.results;
    assert.deepEqual(
      [ev.event, ev.id, ev.memory, ev.oldMemory, ev.newMemory],
      ["UPDATE", nycId, "User lives in San Francisco", "User lives in NYC", "User lives in San Francisco"],
    );
    const dec = chatCalls(server, DECIDE).at(-1);
    assert.deepEqual(decisionPayload(dec), {
      existing: [{ id: "0", text: "User lives in NYC" }],
      facts: ["User moved to San Francisco"],
    });
    assert.ok(!userContent(dec).includes(nycId), "real ids are not shown to the LLM");
    const item = await mem.get(nycId);
    assert.equal(item.memory, "User lives in San Francisco");
    assert.equal(item.hash, md5("User lives in San Francisco"));
    assert.equal((await mem.getAll({ userId: "u" })).results.length, 1);
    const hist = await mem.history(nycId);
    assert.deepEqual(hist.map((h) => [h.event, h.oldValue, h.newValue]), [
      ["ADD", null, "User lives in NYC"],
      ["UPDATE", "User lives in NYC", "User lives in San Francisco"],
    ]);
  });

  test("a refinement merges into the existing memory (case 16)", T, async () => {
    const mem = makeMemory(server);
    const techId = (await seed(mem, server, ["User works in tech"], { userId: "u" })).results[0].id;
    const merged = "User works in tech at Google as a senior engineer";
    server.script([
      extraction("senior engineer at Google", ["User works at Google as a senior engineer"]),
      decision("User works at Google as a senior engineer", [
        { id: "0", text: merged, event: "UPDATE", old_memory: "User works in tech" },
      ]),
    ]);
    const res = await mem.add("I'm a senior engineer at Google", { userId: "u" });
    assert.deepEqual(res.results.map((e) => [e.event, e.id, e.newMemory]), [["UPDATE", techId, merged]]);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), [merged]);
  });

  test("a negation DELETEs the old memory (case 17)", T, async () => {
    const mem = makeMemory(server);
    server.script({ kind: "concept", words: ["vegetarian", "meat"] });
    const vegId = (await seed(mem, server, ["User is vegetarian"], { userId: "u" })).results[0].id;
    server.script([
      extraction("eating meat again", ["User started eating meat again"]),
      decision("User started eating meat again", [
        { id: "0", text: "User is vegetarian", event: "DELETE" },
        { text: "User started eating meat again", event: "ADD" },
      ]),
    ]);
    const res = await mem.add("I started eating meat again", { userId: "u" });
    assert.deepEqual(res.warnings, []);
    const del = res.results.find((e) => e.event === "DELETE");
    assert.ok(del, JSON.stringify(res));
    assert.equal(del.id, vegId);
    assert.equal(del.oldMemory, "User is vegetarian");
    assert.equal(del.memory, "User is vegetarian");
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User started eating meat again"]);
    assert.equal(await mem.get(vegId), null);
    const hist = await mem.history(vegId);
    assert.deepEqual(hist.map((h) => [h.event, h.newValue, h.isDeleted]), [
      ["ADD", "User is vegetarian", false],
      ["DELETE", null, true],
    ]);
  });

  test("one add can UPDATE, DELETE and ADD; rewritten texts are embedded in one second batch (exact pipeline; case 18)", T, async () => {
    const mem = makeMemory(server, { pipeline: "exact" });
    const seeded = await seed(mem, server, ["User lives in NYC", "User is vegetarian"], { userId: "u" });
    const facts = ["User lives in NYC and Boston", "User is no longer vegetarian", "User has a dog", "User enjoys hiking"];
    server.script([
      extraction("big update", facts),
      decision(facts, [
        { id: "0", text: "User lives in Boston", event: "UPDATE", old_memory: "User lives in NYC" },
        { id: "1", text: "User is vegetarian", event: "DELETE" },
        { text: "User has a dog", event: "ADD" },
        { text: "User enjoys mountain hiking", event: "ADD" },
      ]),
    ]);
    const embedsBefore = server.count("embedding");
    const res = await mem.add("big update", { userId: "u" });
    assert.deepEqual(res.warnings, []);
    assert.deepEqual(res.results.map((e) => e.event).sort(), ["ADD", "ADD", "DELETE", "UPDATE"]);
    assert.equal(res.results.find((e) => e.event === "UPDATE").id, idOf(seeded.results, "User lives in NYC"));
    assert.equal(res.results.find((e) => e.event === "DELETE").id, idOf(seeded.results, "User is vegetarian"));
    assert.deepEqual(decisionPayload(chatCalls(server, DECIDE).at(-1)).existing, [
      { id: "0", text: "User lives in NYC" },
      { id: "1", text: "User is vegetarian" },
    ]);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), [
      "User enjoys mountain hiking", "User has a dog", "User lives in Boston",
    ]);
    const embeds = server.requests("embedding").slice(embedsBefore);
    assert.equal(embeds.length, 2, "facts batch + rewritten batch");
    assert.deepEqual(sortedInputs(embeds[0]), [...facts].sort());
    assert.deepEqual(sortedInputs(embeds[1]), ["User enjoys mountain hiking", "User lives in Boston"]);
  });

  test("a 10-fact add makes exactly 2 chat requests and at most 2 embedding requests (exact pipeline)", T, async () => {
    const mem = makeMemory(server, { pipeline: "exact" });
    const words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    const facts = words.map((w) => `User has hobby number ${w}`);
    server.script([extraction("ten facts please", facts), decision(facts, addsFor(facts))]);
    const res = await mem.add("ten facts please", { userId: "ten" });
    assert.equal(res.results.length, 10);
    assert.ok(res.results.every((e) => e.event === "ADD"));
    assert.equal(server.count("chat"), 2);
    assert.ok(server.count("embedding") <= 2, `embedding requests: ${server.count("embedding")}`);
    assert.deepEqual(sortedInputs(server.requests("embedding")[0]), [...facts].sort());
    assert.deepEqual(decisionPayload(chatCalls(server, DECIDE)[0]), { existing: [], facts });
    assert.equal((await mem.getAll({ userId: "ten" })).results.length, 10);
  });

  test("exact duplicates are NONE and not sent to the decision LLM; an ADD of existing text is NONE", T, async () => {
    const mem = makeMemory(server);
    const teaId = (await seed(mem, server, ["User likes tea"], { userId: "u" })).results[0].id;
    server.script([
      extraction("tea and cake", ["User likes tea", "User likes cake", "User really likes tea"]),
      decision("User likes cake", [
        { text: "User likes cake", event: "ADD" },
        { text: "User likes tea", event: "ADD" },
      ]),
    ]);
    const res = await mem.add("tea and cake", { userId: "u" });
    const payload = decisionPayload(chatCalls(server, DECIDE).at(-1));
    assert.deepEqual(payload.facts, ["User likes cake", "User really likes tea"]);
    const none = res.results.filter((e) => e.event === "NONE");
    assert.ok(none.length >= 1 && none.every((e) => e.id === teaId), JSON.stringify(res.results));
    assert.deepEqual(res.results.filter((e) => e.event === "ADD").map((e) => e.memory), ["User likes cake"]);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User likes cake", "User likes tea"]);
  });
});

describe("a decision that names one memory twice", () => {
  for (const pipeline of ["fast", "exact"]) {
    test(`NONE then UPDATE of one memory applies the UPDATE (${pipeline} pipeline)`, T, async () => {
      const mem = makeMemory(server, { pipeline });
      server.script({ kind: "concept", words: ["nyc", "berlin"] });
      const nycId = (await seed(mem, server, ["User lives in NYC"], { userId: "u" })).results[0].id;
      server.script([
        extraction(`I moved to Berlin (${pipeline})`, ["User moved to Berlin"]),
        decision("User moved to Berlin", [
          { id: "0", text: "User lives in NYC", event: "NONE" },
          { id: "0", text: "User lives in Berlin", event: "UPDATE", old_memory: "User lives in NYC" },
        ]),
      ]);
      const res = await mem.add(`I moved to Berlin (${pipeline})`, { userId: "u" });
      assertAddResult(res);
      assert.deepEqual(decisionPayload(chatCalls(server, DECIDE).at(-1)).existing, [{ id: "0", text: "User lives in NYC" }]);
      assert.deepEqual(res.warnings, []);
      assert.deepEqual(res.results.map((e) => [e.event, e.id, e.memory]), [["UPDATE", nycId, "User lives in Berlin"]]);
      assert.equal((await mem.get(nycId)).memory, "User lives in Berlin");
      assert.deepEqual((await mem.history(nycId)).map((h) => h.event), ["ADD", "UPDATE"]);
    });
  }
});

describe("decisions about unknown ids", () => {
  test("invented ids and real uuids are ignored and reported as UNKNOWN_MEMORY_ID", T, async () => {
    const mem = makeMemory(server);
    const teaId = (await seed(mem, server, ["User likes tea"], { userId: "alice" })).results[0].id;
    server.script([
      extraction("green tea", ["User likes green tea"]),
      decision("User likes green tea", [
        { id: "7", text: "User likes oolong", event: "UPDATE", old_memory: "User likes tea" },
        { id: "abc", text: "User likes tea", event: "DELETE" },
        { id: teaId, text: "User hates tea", event: "UPDATE" },
        { text: "User likes green tea", event: "ADD" },
      ]),
    ]);
    const res = await mem.add("green tea", { userId: "alice" });
    assertAddResult(res);
    assert.ok(warningCodes(res).includes("UNKNOWN_MEMORY_ID"), JSON.stringify(res.warnings));
    assert.ok(warningCodes(res).every((c) => c === "UNKNOWN_MEMORY_ID"));
    assert.deepEqual(res.results.filter((e) => e.event !== "NONE").map((e) => [e.event, e.memory]), [
      ["ADD", "User likes green tea"],
    ]);
    assert.equal((await mem.get(teaId)).memory, "User likes tea");
    assert.deepEqual((await mem.history(teaId)).map((h) => h.event), ["ADD"]);
  });

  test("another scope's memory cannot be changed through a decision", T, async () => {
    const mem = makeMemory(server);
    const bobId = (await seed(mem, server, ["User likes jazz"], { userId: "bob" })).results[0].id;
    server.script([
      extraction("I like jazz music", ["User likes jazz music"]),
      decision("User likes jazz music", [
        { id: bobId, text: "User hates jazz", event: "UPDATE", old_memory: "User likes jazz" },
        { id: bobId, text: "User likes jazz", event: "DELETE" },
        { text: "User likes jazz music", event: "ADD" },
      ]),
    ]);
    const res = await mem.add("I like jazz music", { userId: "alice" });
    assert.deepEqual(decisionPayload(chatCalls(server, DECIDE).at(-1)).existing, [], "bob's memory is not shown");
    assert.ok(warningCodes(res).includes("UNKNOWN_MEMORY_ID"), JSON.stringify(res.warnings));
    const bob = await mem.get(bobId);
    assert.equal(bob.memory, "User likes jazz");
    assert.equal(bob.userId, "bob");
    assert.deepEqual((await mem.history(bobId)).map((h) => h.event), ["ADD"]);
    assert.deepEqual(texts((await mem.getAll({ userId: "alice" })).results), ["User likes jazz music"]);
  });

  test("add filters narrow the memories shown to the decision LLM", T, async () => {
    const mem = makeMemory(server);
    await seed(mem, server, ["User likes black tea"], { userId: "u" }, { metadata: { topic: "drinks" } });
    await seed(mem, server, ["User likes tea parties"], { userId: "u" }, { metadata: { topic: "events" } });
    server.script(extraction("tea again", ["User likes tea"]));
    await mem.add("tea again", { userId: "u", filters: { field: "topic", operator: "eq", value: "drinks" } });
    const { existing } = decisionPayload(chatCalls(server, DECIDE).at(-1));
    assert.deepEqual(existing, [{ id: "0", text: "User likes black tea" }]);
  });
});

describe("reply formats", () => {
  test("the bare event array format is accepted", T, async () => {
    const mem = makeMemory(server);
    const teaId = (await seed(mem, server, ["User likes tea"], { userId: "u" })).results[0].id;
    server.script([
      extraction("kites and green tea", ["User likes kites", "User likes green tea"]),
      { kind: "chat", match: [DECIDE, "User likes kites"], times: 1, reply: JSON.stringify([
        { event: "ADD", data: "User likes kites" },
        { event: "UPDATE", id: "0", old_memory: "User likes tea", data: "User likes green tea" },
        { event: "NONE" },
      ]) },
    ]);
    const res = await mem.add("kites and green tea", { userId: "u" });
    assert.deepEqual(res.warnings, []);
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]).sort(), [
      ["ADD", "User likes kites"], ["UPDATE", "User likes green tea"],
    ]);
    assert.equal(res.results.find((e) => e.event === "UPDATE").id, teaId);
    server.script([
      extraction("no more green tea", ["User dislikes green tea now"]),
      { kind: "chat", match: [DECIDE, "User dislikes green tea now"], reply: JSON.stringify([{ event: "DELETE", id: "0" }]) },
    ]);
    const del = await mem.add("no more green tea", { userId: "u" });
    assert.deepEqual(del.results.map((e) => [e.event, e.id]), [["DELETE", teaId]]);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User likes kites"]);
  });

  const wrapped = {
    "code fences": '```json\n{"facts": ["User likes chess"]}\n```',
    "<think> block": '<think>Maybe {"facts": ["User likes checkers"]}?</think>\n{"facts": ["User likes chess"]}',
    "prose around JSON": 'Sure! Here are the facts:\n{"facts": ["User likes chess"]}\nHope that helps.',
    "bare JSON array": '["User likes chess"]',
  };
  for (const [name, reply] of Object.entries(wrapped)) {
    test(`extraction reply with ${name} is parsed`, T, async () => {
      const mem = makeMemory(server);
      server.script([
        { kind: "chat", match: [EXTRACT, "I like chess"], reply },
        { kind: "chat", match: [DECIDE, "User likes chess"], reply: "```json\n" + JSON.stringify({ memory: addsFor(["User likes chess"]) }) + "\n```" },
      ]);
      const res = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(res.warnings, []);
      assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["ADD", "User likes chess"]]);
    });
  }
});

describe("infer: false", () => {
  test("stores each non-system message verbatim with its role, without any LLM call", T, async () => {
    const mem = makeMemory(server);
    const messages = [
      { role: "system", content: "You are helpful" },
      { role: "user", content: "I like tea" },
      { role: "assistant", content: "Noted, tea it is" },
    ];
    const res = await mem.add(messages, { userId: "raw", metadata: { src: "import" }, infer: false });
    assertAddResult(res);
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["ADD", "I like tea"], ["ADD", "Noted, tea it is"]]);
    assert.equal(server.count("chat"), 0);
    const all = (await mem.getAll({ userId: "raw" })).results;
    assert.deepEqual(all.map((i) => [i.memory, i.metadata]), [
      ["I like tea", { src: "import", role: "user" }],
      ["Noted, tea it is", { src: "import", role: "assistant" }],
    ]);
    // As mem0 does, texts are stored as given: no exact-duplicate check without inference.
    const again = await mem.add(messages, { userId: "raw", infer: false });
    assert.deepEqual(again.results.map((e) => e.event), ["ADD", "ADD"]);
    assert.equal(again.results.filter((e) => all.some((i) => i.id === e.id)).length, 0);
    const str = await mem.add("plain string memory", { userId: "raw", infer: false });
    assert.deepEqual(str.results.map((e) => e.event), ["ADD"]);
    assert.equal((await mem.get(str.results[0].id)).metadata.role, "user");
    assert.equal(server.count("chat"), 0);
  });
});

describe("custom prompts (case 39)", () => {
  test("a per-call prompt replaces the extraction system prompt and changes what is extracted", T, async () => {
    const prompt = 'Only extract colours the user likes. Reply as JSON: {"facts": [...]}';
    const input = "I like red and I live in Paris";
    server.script([
      { kind: "chat", match: ["Only extract colours", input], reply: { facts: ["User likes red"] } },
      extraction(input, ["User lives in Paris", "User likes red"]),
      decision(["User lives in Paris", "User likes red"], addsFor(["User lives in Paris", "User likes red"])),
      decision("User likes red", addsFor(["User likes red"])),
    ]);
    const custom = await makeMemory(server).add(input, { userId: "u", prompt });
    const [call] = server.requests("chat");
    assert.ok(call.body.messages[0].content.startsWith(prompt), call.body.messages[0].content);
    assert.ok(!call.body.messages[0].content.includes(EXTRACT));
    assert.deepEqual(texts(custom.results), ["User likes red"]);
    const plain = await makeMemory(server).add(input, { userId: "u" });
    assert.deepEqual(texts(plain.results), ["User likes red", "User lives in Paris"]);
  });

  test("config customPrompts replace both system prompts for every call", T, async () => {
    const mem = makeMemory(server, {
      customPrompts: {
        factExtraction: 'CUSTOM-EXTRACT: list the facts as {"facts": [...]}',
        updateDecision: 'CUSTOM-DECIDE: answer {"memory": [...]}',
      },
    });
    server.script([
      { kind: "chat", match: ["CUSTOM-EXTRACT", "I like kites"], reply: { facts: ["User likes kites"] } },
      { kind: "chat", match: ["CUSTOM-DECIDE", "User likes kites"], reply: { memory: addsFor(["User likes kites"]) } },
    ]);
    const res = await mem.add("I like kites", { userId: "u" });
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["ADD", "User likes kites"]]);
    const [extract, decide] = server.requests("chat");
    assert.ok(extract.body.messages[0].content.startsWith("CUSTOM-EXTRACT"));
    assert.ok(decide.body.messages[0].content.startsWith("CUSTOM-DECIDE"));
    assert.ok(!decide.body.messages[0].content.includes(DECIDE));
    assert.deepEqual(decisionPayload(decide), { existing: [], facts: ["User likes kites"] });
  });
});

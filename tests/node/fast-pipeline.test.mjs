// add()'s fast pipeline (the default): the conversation is embedded while the facts are extracted, the
// decision is sent while the facts are embedded, and texts the decision rewrites get their vector right
// after add() resolves — before any later search ranks. The exact pipeline's costs are in memory-pipeline.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import {
  T,
  DECIDE,
  EXTRACT,
  makeMemory,
  extraction,
  decision,
  addsFor,
  chatCalls,
  decisionPayload,
  texts,
  warningCodes,
  rejectsWith,
  throwsInvalidConfig,
  testConfig,
  scriptedServer,
} from "./helpers.mjs";

const server = scriptedServer();
const embeddings = () => server.requests("embedding").map((r) => [].concat(r.body.input));

describe("the fast add() pipeline", () => {
  test("10 facts: 2 chat and 2 embedding requests, and the decision goes out before the facts' vectors return", T, async () => {
    const mem = makeMemory(server);
    const words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    const facts = words.map((w) => `User has hobby number ${w}`);
    const held = 1500; // the facts' embedding answers this late; the decision must not wait for it
    server.script([
      { kind: "embedding", match: "User has hobby number one", delayMs: held },
      extraction("ten hobbies", facts),
      decision(facts, addsFor(facts)),
    ]);
    const res = await mem.add("I have ten hobbies. They are numbered.", { userId: "u" });
    assert.deepEqual(texts(res.results), [...facts].sort());
    assert.deepEqual(embeddings(), [["I have ten hobbies.", "They are numbered."], facts]);
    assert.equal(server.count("chat"), 2);
    const factsSent = server.requests("embedding")[1].time;
    const decisionSent = chatCalls(server, DECIDE)[0].time;
    assert.ok(decisionSent < factsSent + held, `decision sent ${decisionSent - factsSent} ms after the facts' embedding`);
  });

  test("a rewritten text is embedded once, after add() resolves, and the next search waits for it", T, async () => {
    const mem = makeMemory(server);
    await mem.add([{ role: "user", content: "User lives in NYC" }], { userId: "u", infer: false });
    server.reset();
    server.script([
      extraction("Boston", ["User moved to Boston"]),
      decision("User moved to Boston", [{ id: "0", text: "User lives in Boston, not NYC", event: "UPDATE" }]),
    ]);
    const res = await mem.add("I moved to Boston.", { userId: "u" });
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["UPDATE", "User lives in Boston, not NYC"]]);
    assert.deepEqual(embeddings().slice(0, 2), [["I moved to Boston."], ["User moved to Boston"]]);
    const found = await mem.search("Boston", { userId: "u", limit: 1 });
    assert.equal(found.results[0].memory, "User lives in Boston, not NYC");
    const rewrites = embeddings().filter((input) => input.includes("User lives in Boston, not NYC"));
    assert.deepEqual(rewrites, [["User lives in Boston, not NYC"]], "one settle request, shared by whoever waits");
    const exported = (await mem.exportMemories({ userId: "u" })).split("\n").filter(Boolean).map((l) => JSON.parse(l));
    assert.ok(exported.find((line) => line.memory === "User lives in Boston, not NYC").embedding, "stored with its vector");
  });

  test("LLM down: one embedding request (the conversation), EXTRACTION_FAILED, no throw", T, async () => {
    const mem = makeMemory(server);
    server.script({ kind: "chat", match: EXTRACT, status: 503 });
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(res.results, []);
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
    assert.deepEqual(embeddings(), [["I like chess"]]);
  });

  test("a fact that cannot be embedded is shown to the decision but never stored", T, async () => {
    const mem = makeMemory(server);
    const facts = ["User likes chess", "User owns a boat", "User speaks French"];
    server.script([
      { kind: "embedding", match: "User owns a boat", status: 500 },
      extraction("three facts", facts),
      decision(facts, addsFor(facts)),
    ]);
    const res = await mem.add("three facts", { userId: "u" });
    assert.deepEqual(warningCodes(res), ["EMBEDDING_FAILED"]);
    assert.deepEqual(decisionPayload(chatCalls(server, DECIDE)[0]).facts, facts);
    assert.deepEqual(texts(res.results), ["User likes chess", "User speaks French"]);
    assert.deepEqual(texts((await mem.getAll({ userId: "u" })).results), ["User likes chess", "User speaks French"]);
  });

  test("pipeline takes \"fast\" or \"exact\", in the config and per call; anything else is a coded error", T, async () => {
    throwsInvalidConfig(testConfig(server, { pipeline: "quick" }));
    const mem = makeMemory(server, { pipeline: "exact" });
    await rejectsWith(() => mem.add("hi", { userId: "u", pipeline: "quick" }), "INVALID_INPUT");
    server.script([extraction("tea", ["User likes tea"]), decision("User likes tea", addsFor(["User likes tea"]))]);
    await mem.add("I like tea.", { userId: "u" });
    assert.deepEqual(embeddings(), [["User likes tea"]], "exact: the facts only");
    server.reset();
    server.script([extraction("jam", ["User likes jam"]), decision("User likes jam", addsFor(["User likes jam"]))]);
    await mem.add("I like jam.", { userId: "u", pipeline: "fast" });
    assert.deepEqual(embeddings(), [["I like jam."], ["User likes jam"]], "the call's pipeline wins");
  });
});

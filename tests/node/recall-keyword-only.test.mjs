// embedder: {provider: "none"}: a keyword-only memory end to end. add() stores memories without vectors
// and shows the LLM BM25 neighbours, exact duplicates are still caught, every search method answers with
// keywords and says so, update() works, recall and tools work, and no embedding request is ever sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, testConfig, extraction, decision, decisionPayload, chatCalls, DECIDE, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

const keywordOnly = () => new Memory({ ...testConfig(server), embedder: { provider: "none" } });

test("a memory without an embedder works end to end and never embeds", T, async () => {
  const memory = keywordOnly();
  const stored = await memory.add(
    ["User likes tea", "User lives in Paris", "User owns a cat"].map((content) => ({ role: "user", content })),
    { userId: "alice", infer: false },
  );
  assert.deepEqual(stored.results.map((e) => e.event), ["ADD", "ADD", "ADD"]);
  await memory.add("User likes tea with milk", { userId: "bob", infer: false });

  // Inference: the decision sees the BM25 neighbours of the new fact, best first, from this scope only.
  server.script([
    extraction("I prefer green tea", ["User likes green tea"]),
    decision("User likes green tea", [
      { id: "0", event: "UPDATE", text: "User likes green tea", old_memory: "User likes tea" },
    ]),
  ]);
  const updated = await memory.add("Actually, I prefer green tea now", { userId: "alice" });
  assert.deepEqual(updated.warnings, []);
  assert.equal(updated.results.length, 1);
  assert.equal(updated.results[0].event, "UPDATE");
  assert.equal(updated.results[0].newMemory, "User likes green tea");
  const [call] = chatCalls(server, DECIDE);
  const shown = decisionPayload(call).existing.map((m) => m.text);
  assert.equal(shown[0], "User likes tea", JSON.stringify(shown));
  assert.ok(!shown.includes("User likes tea with milk"), "bob's memory is never a neighbour");

  // Exact duplicates: a NONE event, no decision call.
  server.script(extraction("I have a cat", ["User owns a cat"]));
  const again = await memory.add("I have a cat", { userId: "alice" });
  assert.deepEqual(again.results.map((e) => e.event), ["NONE"]);
  assert.equal(chatCalls(server, DECIDE).length, 1);

  // Every method degrades to keyword, and says so.
  for (const method of [undefined, "vector", "keyword", "hybrid", "rrf"]) {
    const found = await memory.search("green tea", { userId: "alice", ...(method ? { method } : {}) });
    assert.equal(found.method, "keyword", String(method));
    assert.equal(found.results[0].memory, "User likes green tea");
    assert.ok(found.results.every((m) => m.userId === "alice"));
  }

  // update() without re-embedding; the keyword index follows.
  const cat = (await memory.getAll({ userId: "alice" })).results.find((m) => m.memory.includes("cat"));
  // (Not "two cats": keyword search stems English words, so "cat" would find "cats".)
  assert.deepEqual(await memory.update(cat.id, "User owns two parrots"), { message: "Memory updated successfully!" });
  assert.equal((await memory.search("parrots", { userId: "alice" })).results[0].id, cat.id);
  assert.equal((await memory.search("parrot", { userId: "alice" })).results[0].id, cat.id, "stemmed: parrot = parrots");
  assert.equal((await memory.search("cat", { userId: "alice" })).results.length, 0, "the old text is gone");
  await memory.delete(cat.id);
  assert.equal((await memory.search("parrots", { userId: "alice" })).results.length, 0);

  const recalled = await memory.recall("tea", { userId: "alice" });
  assert.equal(recalled.method, "keyword");
  // The messages were stored as conversation turns: "User lives in Paris" is read with the turn before it
  // ("User likes green tea", updated in place), so "tea" finds it too, below the turn that has the word
  // (same tf 1, but its document is longer: 3 + 4 terms against 4).
  assert.equal(recalled.text, "<memory>\n[SEMANTIC] User likes green tea\n[SEMANTIC] User lives in Paris\n</memory>");

  const tools = memory.tools({ userId: "alice" });
  const created = await tools.runTool("manage_memory", { action: "create", content: "User plays chess" });
  assert.equal(created.event, "ADD");
  const found = await tools.runTool("search_memory", { query: "chess" });
  assert.deepEqual(found.results.map((r) => r.memory), ["User plays chess"]);

  assert.equal(server.count("embedding"), 0, "the scripted server saw no embedding request");
});

test("no embedder and no LLM: a plain keyword store", T, async () => {
  const memory = new Memory({ llm: { provider: "none" }, embedder: { provider: "none" } });
  await memory.add("Meeting with Dana on Friday at 10:00", { userId: "u" });
  await memory.add("東京で寿司を食べた", { userId: "u" });
  await memory.add("Café crème at the Gare du Nord", { userId: "u" });
  const first = async (query) => (await memory.search(query, { userId: "u", method: "hybrid" })).results[0]?.memory;
  assert.equal(await first("friday meeting"), "Meeting with Dana on Friday at 10:00");
  assert.equal(await first("寿司"), "東京で寿司を食べた");
  assert.equal(await first("cafe\u0301"), "Café crème at the Gare du Nord", "NFD query finds NFC text");
  assert.equal((await memory.search("nothing matches", { userId: "u" })).results.length, 0);
});

// Document ingestion: ingest(text, {…scope, sessionId, memoryTypeHint?}) cleans the text, cuts it
// into chunks, embeds the chunks not seen before in one request (an embedding cache by content hash), scores
// each chunk (0.6 · novelty + 0.4 · salience, discarded below 0.3), routes it to a memory type, and stores the
// rest in one commit, with no LLM call. The scripted server's embeddings are bags of lower-cased words, so two
// texts with the same words (in any order, in any case) have the same vector: novelty 0 against each other.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { countTokens } from "memwasm";
import { T, makeMemory, md5, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

/** Four paragraphs of 50–300 tokens (by `countTokens`), one per routing rule. */
const PREFERENCE =
  "I prefer short answers with code first and explanations after, and I always want the tests shown next to the change, because reading long prose before seeing any code slows me down when I review work late in the evening. We went back and forth on all of it for quite a while before moving on.";
const NOW =
  "Right now I am in the middle of moving the billing page to the new layout, so for the rest of this session please keep answers focused on that page and leave the older screens and the styling questions for later on. We went back and forth on all of it for quite a while before moving on.";
const FACT =
  "The billing service is a small program that stores invoices in a relational database and sends a receipt to each customer by mail; it depends on a queue for retries and uses a cache for the exchange rates it reads. The service is small and it has a single owner who keeps it running and answers its alerts.";
const EVENT =
  "We shipped the new release and celebrated with cake in the office, and afterwards the whole team walked down to the river to watch the boats pass by while the sun went down behind the old bridge near the station. We went back and forth on all of it for quite a while before moving on.";
const DOCUMENT = `  ${PREFERENCE}\n\n\n\n${NOW}\n\n${FACT}\n \n\n${EVENT}\n`;
const CLEANED = [PREFERENCE, NOW, FACT, EVENT].join("\n\n");

describe("ingest", () => {
  test("stores each chunk as a memory, with one embedding request and no LLM call", T, async () => {
    const mem = makeMemory(server);
    const result = await mem.ingest(DOCUMENT, { userId: "u", sessionId: "s1" });
    assert.deepEqual(Object.keys(result).sort(), ["chunks", "discarded", "stored"]);
    assert.equal(server.count("embedding"), 1, "one batched request");
    assert.equal(server.count("chat"), 0, "no LLM call");
    assert.deepEqual(server.requests("embedding")[0].inputs, [PREFERENCE, NOW, FACT, EVENT]);
    assert.equal(result.stored, 4);
    assert.equal(result.discarded, 0);
    const { results } = await mem.getAll({ userId: "u" });
    for (const [i, chunk] of result.chunks.entries()) {
      assert.deepEqual(Object.keys(chunk).sort(), ["id", "importance", "memoryType", "stored", "text", "tokens"]);
      assert.equal(chunk.stored, true);
      assert.ok(chunk.tokens >= 50 && chunk.tokens <= 300, `${chunk.tokens}`);
      assert.equal(chunk.tokens, countTokens(chunk.text), "the library's token count");
      assert.ok(chunk.importance >= 0.6, "novelty 1 in an empty scope");
      const memory = results.find((m) => m.id === chunk.id);
      assert.equal(memory.memory, chunk.text);
      assert.equal(memory.hash, md5(chunk.text));
      assert.deepEqual(memory.metadata, { sessionId: "s1", documentHash: md5(CLEANED), chunkIndex: i });
      assert.equal(memory.importance, chunk.importance);
      assert.equal(memory.memoryType, chunk.memoryType);
      const history = await mem.history(chunk.id);
      assert.deepEqual(history.map((h) => [h.event, h.newValue]), [["ADD", chunk.text]]);
    }
  });

  test("routes chunks: preference → procedural, now → working, fact → semantic, else episodic", T, async () => {
    const mem = makeMemory(server);
    const routed = await mem.ingest(DOCUMENT, { userId: "u", sessionId: "s1" });
    assert.deepEqual(routed.chunks.map((c) => c.memoryType), ["procedural", "working", "semantic", "episodic"]);
    const hinted = await mem.ingest(DOCUMENT, { agentId: "a", sessionId: "s2", memoryTypeHint: "foresight" });
    assert.deepEqual(hinted.chunks.map((c) => c.memoryType), Array(4).fill("foresight"));
    const found = await mem.search("billing", { agentId: "a", memoryTypes: ["foresight"] });
    assert.ok(found.results.length > 0);
  });

  test("the same text again makes zero embedding requests and stores nothing twice", T, async () => {
    const mem = makeMemory(server);
    const first = await mem.ingest(DOCUMENT, { userId: "u", sessionId: "s1" });
    const again = await mem.ingest(DOCUMENT, { userId: "u", sessionId: "s2" });
    assert.equal(server.count("embedding"), 1, "every vector came from the cache");
    assert.deepEqual([again.stored, again.discarded], [0, 4]);
    for (const [i, chunk] of again.chunks.entries()) {
      assert.equal(chunk.reason, "DUPLICATE");
      assert.equal(chunk.id, first.chunks[i].id, "the memory holding the text");
    }
    assert.equal((await mem.getAll({ userId: "u" })).totalCount, 4);
    const elsewhere = await mem.ingest(DOCUMENT, { userId: "w", sessionId: "s3" });
    assert.equal(elsewhere.stored, 4, "another scope stores its own copies…");
    assert.equal(server.count("embedding"), 1, "…with the vectors it already has");
  });

  test("0.3 threshold: a chunk of no novelty is kept only when salient enough", T, async () => {
    const mem = makeMemory(server);
    const scope = { userId: "u", sessionId: "s" };
    const first = await mem.ingest("i prefer tea at acme since 2024", scope);
    assert.equal(first.chunks[0].importance, 0.84, "0.6 · 1 + 0.4 · (number 0.2 + preference 0.4)");
    // The same words: the same vector, novelty 0 against the scope. Capitalised mid-sentence, Acme is a name.
    const salient = await mem.ingest("i prefer tea at Acme since 2024", scope);
    assert.equal(salient.chunks[0].importance, 0.36, "0.4 · (0.3 + 0.2 + 0.4)");
    assert.equal(salient.chunks[0].stored, true);
    const dull = await mem.ingest("since 2024 at acme i prefer tea", scope);
    assert.deepEqual(dull.chunks[0], {
      text: "since 2024 at acme i prefer tea",
      tokens: countTokens("since 2024 at acme i prefer tea"),
      importance: 0.24,
      memoryType: "procedural",
      stored: false,
      reason: "LOW_IMPORTANCE",
    });
    assert.deepEqual([dull.stored, dull.discarded], [0, 1]);
    assert.equal((await mem.getAll({ userId: "u" })).totalCount, 2, "the discarded chunk is not stored");
    assert.equal(server.count("embedding"), 3);
    const cached = await mem.ingest("since 2024 at acme i prefer tea", scope);
    assert.equal(server.count("embedding"), 3, "a discarded chunk's vector is cached too");
    assert.equal(cached.chunks[0].reason, "LOW_IMPORTANCE");
  });

  test("importance.minToStore above 0.3 raises the threshold; limits trim the scope", T, async () => {
    const strict = makeMemory(server, { importance: { minToStore: 0.9 } });
    const result = await strict.ingest(FACT, { userId: "u", sessionId: "s" });
    assert.deepEqual([result.chunks[0].importance >= 0.6, result.chunks[0].reason], [true, "LOW_IMPORTANCE"]);
    const limited = makeMemory(server, { limits: { maxMemoriesPerScope: 2 } });
    await limited.add("an old note about nothing much", { userId: "u", infer: false });
    await limited.ingest(`${FACT}\n\n${EVENT}`, { userId: "u", sessionId: "s" });
    const { results } = await limited.getAll({ userId: "u" });
    assert.deepEqual(results.map((m) => m.memory), [FACT, EVENT], "the old note was trimmed");
  });

  test("cleaning in the package: NFC through String.prototype.normalize, code blocks whole, CJK tokens", T, async () => {
    const mem = makeMemory(server);
    const code = "```js\nconst a = 1;\n\n\n\nconst b = 2;\n```";
    const text = `Cafe\u0301 notes\n\n\n${code}\n\n记忆很重要。🎉`;
    const { chunks } = await mem.ingest(text, { userId: "u", sessionId: "s" });
    assert.equal(chunks.length, 1, "three short paragraphs merge into one chunk");
    assert.equal(chunks[0].text, `Caf\u00e9 notes\n\n${code}\n\n记忆很重要。🎉`, "NFC; the code block's blank lines kept");
    assert.equal(chunks[0].tokens, countTokens(chunks[0].text));
    assert.ok(chunks[0].tokens > countTokens(`Caf\u00e9 notes\n\n${code}`), "CJK and the emoji count too");
  });
});

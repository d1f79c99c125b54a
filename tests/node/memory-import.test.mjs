// importMemories' options ({onProgress, signal}) and its dimension check, on the in-memory store: a bad option
// is INVALID_INPUT, an aborted signal rejects with ABORTED and nothing is written, progress counts up through
// read → write → index, and vectors of another length than the memory's are refused naming the line.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, md5, testConfig, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

/** A memory whose embedder makes `dimensions`-long vectors (known from the config). */
const memory = (dimensions = 64) => new Memory({ ...testConfig(server, { embedder: { dimensions } }), llm: { provider: "none" } });

/** An export of `n` memories of user "u" with `dim`-long unit vectors. */
function exportText(n, dim = 64, prefix = "m") {
  const at = "2026-01-01T00:00:00.000Z";
  const lines = [{ kind: "memwasm-export", version: 2, memories: n, history: 0 }];
  for (let i = 0; i < n; i++) {
    const vector = new Float32Array(dim);
    vector[i % dim] = 1;
    const text = `${prefix} fact ${i}`;
    lines.push({ kind: "memory", id: `${prefix}${i}`, memory: text, hash: md5(text), metadata: {}, createdAt: at, updatedAt: at,
      userId: "u", embedding: Buffer.from(vector.buffer).toString("base64") });
  }
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

const stored = async (mem) => (await mem.getAll({ userId: "u", limit: 100_000 })).results.length;

async function rejectsWith(promise, code, pattern) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.code, code, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}

describe("importMemories options", () => {
  test("options are optional and checked", T, async () => {
    const mem = memory();
    assert.deepEqual(await mem.importMemories(exportText(2)), { memories: 2, history: 0 });
    assert.deepEqual(await mem.importMemories(exportText(2), {}), { memories: 2, history: 0 });
    assert.deepEqual(await mem.importMemories(exportText(2), null), { memories: 2, history: 0 });
    await rejectsWith(mem.importMemories(exportText(1), 5), "INVALID_INPUT", /importMemories options: expected an object/);
    await rejectsWith(mem.importMemories(exportText(1), { onProgress: 1 }), "INVALID_INPUT", /`onProgress` must be a function/);
    await rejectsWith(mem.importMemories(exportText(1), { signal: {} }), "INVALID_INPUT", /`signal` must be an AbortSignal/);
    await rejectsWith(mem.importMemories(exportText(1), { onprogress() {} }), "INVALID_INPUT", /`onprogress` is not an option/);
  });

  test("an aborted signal rejects with ABORTED and writes nothing", T, async () => {
    const mem = memory();
    await rejectsWith(mem.importMemories(exportText(3), { signal: AbortSignal.abort() }), "ABORTED", /nothing was written/);
    assert.equal(await stored(mem), 0);
  });

  test("aborting midway rejects with ABORTED and writes nothing", T, async () => {
    const mem = memory();
    const controller = new AbortController();
    const reports = [];
    const onProgress = (report) => {
      reports.push(report);
      if (report.phase === "read" && report.done > 0) controller.abort(new Error("user pressed cancel"));
    };
    await rejectsWith(mem.importMemories(exportText(20_000), { onProgress, signal: controller.signal }), "ABORTED");
    assert.ok(reports.some((r) => r.phase === "read" && r.done > 0 && r.done < r.total), JSON.stringify(reports.slice(0, 3)));
    assert.equal(await stored(mem), 0);
  });

  test("progress counts up through read, write and index to each total", T, async () => {
    const mem = memory();
    const reports = [];
    const thrown = [];
    const warn = console.warn;
    console.warn = (...args) => thrown.push(args);
    try {
      await mem.importMemories(exportText(20_000), { onProgress: (r) => { reports.push(r); if (reports.length === 2) throw new Error("app bug"); } });
    } finally {
      console.warn = warn;
    }
    const phases = ["read", "write", "index"];
    const keys = reports.map((r) => [phases.indexOf(r.phase), r.done]);
    assert.ok(keys.every(([phase, done], i) => phase >= 0 && (i === 0 || phase > keys[i - 1][0] || (phase === keys[i - 1][0] && done >= keys[i - 1][1]))));
    for (const phase of phases) assert.ok(reports.some((r) => r.phase === phase && r.done === 20_000 && r.total === 20_000), phase);
    assert.ok(reports.some((r) => r.phase === "read" && r.done > 0 && r.done < r.total), "reports along the way");
    assert.equal(thrown.length, 1, "what onProgress throws is logged, and the import goes on");
    assert.equal(await stored(mem), 20_000);
  });
});

describe("importMemories text", () => {
  test("a text longer than one copied slice keeps characters whose surrogate pair a slice boundary cuts", T, async () => {
    const at = "2026-01-01T00:00:00.000Z";
    const texts = Array.from({ length: 3000 }, (_, i) => `${i} ${"😀".repeat(200)}`);
    const lines = [{ kind: "memwasm-export", version: 2, memories: texts.length, history: 0 }, ...texts.map((text, i) =>
      ({ kind: "memory", id: `e${i}`, memory: text, hash: md5(text), metadata: {}, createdAt: at, updatedAt: at, userId: "u" }))];
    let jsonl = lines.map((line) => JSON.stringify(line)).join("\n");
    const high = (text) => (text.charCodeAt(2 ** 20 - 1) & 0xfc00) === 0xd800;
    while (!high(jsonl)) jsonl = "\n" + jsonl; // blank lines are skipped: this moves the cut into a pair
    assert.ok(high(jsonl), "the first slice ends inside a surrogate pair");
    const mem = memory();
    assert.deepEqual(await mem.importMemories(jsonl), { memories: texts.length, history: 0 }, "every hash matches its text");
    assert.deepEqual((await mem.getAll({ userId: "u", limit: 10_000 })).results.map((m) => m.memory).sort(), texts.sort());
  });

  test("a text of several slices in three-byte characters, accents and ASCII comes in whole", T, async () => {
    const at = "2026-01-01T00:00:00.000Z";
    const texts = Array.from({ length: 2000 }, (_, i) => i % 3 === 0 ? `${i} 記憶${"日本語の文".repeat(500)}`
      : i % 3 === 1 ? `${i} café ${"é".repeat(500)}` : `${i} plain ${"x".repeat(900)}`);
    const lines = [{ kind: "memwasm-export", version: 2, memories: texts.length, history: 0 }, ...texts.map((text, i) =>
      ({ kind: "memory", id: `c${i}`, memory: text, hash: md5(text), metadata: {}, createdAt: at, updatedAt: at, userId: "u" }))];
    const jsonl = lines.map((line) => JSON.stringify(line)).join("\n");
    assert.ok(jsonl.length > 2 * 2 ** 20 && Buffer.byteLength(jsonl) > 2 * jsonl.length, "several slices, mostly 3 bytes a unit");
    const mem = memory();
    assert.deepEqual(await mem.importMemories(jsonl), { memories: texts.length, history: 0 }, "every hash matches its text");
    assert.deepEqual((await mem.getAll({ userId: "u", limit: 10_000 })).results.map((m) => m.memory).sort(), texts.sort());
  });
});

describe("importMemories dimension check", () => {
  test("vectors of another length than the embedder's are refused naming the line, before anything is written", T, async () => {
    const mem = memory(64);
    await rejectsWith(mem.importMemories(exportText(3, 384)), "DIMENSION_MISMATCH",
      /import line 2: the embedding has 384 dimensions, but 64 are expected \(the embedder is configured for 64\).*Re-embed/);
    assert.equal(await stored(mem), 0);
  });

  test("without configured dimensions, the stored vectors' length rules, then the file's first", T, async () => {
    const mem = new Memory({ ...testConfig(server, { embedder: { dimensions: undefined } }), llm: { provider: "none" } });
    const mixed = exportText(2, 8).trim().split("\n");
    mixed.push(exportText(3, 16, "x").trim().split("\n")[3]);
    mixed[0] = JSON.stringify({ kind: "memwasm-export", version: 2, memories: 3, history: 0 });
    await rejectsWith(mem.importMemories(mixed.join("\n")), "DIMENSION_MISMATCH", /import line 4: .* 16 dimensions, but 8 .*line 2/);
    assert.equal(await stored(mem), 0);
    await mem.add("a fact", { userId: "u", infer: false }); // the scripted embedder's 64-d vector
    await rejectsWith(mem.importMemories(exportText(2, 8)), "DIMENSION_MISMATCH", /the memories stored here have 64/);
    assert.equal(await stored(mem), 1);
  });
});

describe("importMemories of memories without a vector", () => {
  /** An export of `n` memories of user "u" without vectors, each with its own metadata. */
  function vectorless(n) {
    const at = "2026-01-01T00:00:00.000Z";
    const lines = [{ kind: "memwasm-export", version: 2, memories: n, history: 0 }];
    for (let i = 0; i < n; i++) {
      const text = `turn ${i}: ${"we talked about the garden ".repeat(i % 5)}`;
      lines.push({ kind: "memory", id: `t${i}`, memory: text, hash: md5(text), metadata: { dia_id: `D1:${i}` }, createdAt: at, updatedAt: at, userId: "u" });
    }
    return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
  }

  test("they are embedded in batches of 64 before the write, with an embed phase", T, async () => {
    const mem = memory();
    const reports = [];
    assert.deepEqual(await mem.importMemories(vectorless(200), { onProgress: (r) => reports.push(r) }), { memories: 200, history: 0 });
    const requests = server.requests("embedding");
    assert.ok(requests.length <= 4, `${requests.length} embedding requests`);
    assert.equal(requests.reduce((sum, r) => sum + r.inputs.length, 0), 200);
    const phases = [...new Set(reports.map((r) => r.phase))];
    assert.deepEqual(phases, ["read", "embed", "write", "index"]);
    assert.ok(reports.some((r) => r.phase === "embed" && r.done === 200 && r.total === 200));
    const { results } = await mem.search("turn 17: we talked about the garden we talked about the garden", { userId: "u", limit: 1 });
    assert.equal(results[0]?.metadata.dia_id, "D1:17", "found by vector search");
  });

  test("a failed batch is sent again one text at a time; what still fails is imported without a vector, with a warning", T, async () => {
    server.script({ kind: "embedding", match: "turn 3:", status: 400, message: "bad input" });
    const mem = memory();
    const result = await mem.importMemories(vectorless(10));
    assert.equal(result.memories, 10);
    assert.equal(result.warnings.length, 1, JSON.stringify(result));
    assert.equal(result.warnings[0].code, "NOT_EMBEDDED");
    assert.match(result.warnings[0].message, /imported 1 memory without a vector \(the first: "turn 3: /);
    assert.equal(server.count("embedding"), 1 + 10);
    assert.equal(await stored(mem), 10, "no memory is lost");
    const { results } = await mem.search("turn 3:", { userId: "u", method: "keyword", limit: 1 });
    assert.equal(results[0]?.id, "t3", "keyword search finds it");
  });

  test("aborting while embedding rejects with ABORTED and writes nothing", T, async () => {
    server.script({ kind: "embedding", match: "turn", delayMs: 30 });
    const mem = memory();
    const controller = new AbortController();
    const onProgress = (r) => r.phase === "embed" && r.done > 0 && controller.abort();
    await rejectsWith(mem.importMemories(vectorless(300), { onProgress, signal: controller.signal }), "ABORTED", /nothing was written/);
    assert.ok(server.count("embedding") < 5, `${server.count("embedding")} requests`);
    assert.equal(await stored(mem), 0);
  });
});

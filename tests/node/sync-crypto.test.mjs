// pkg/sync-crypto.mjs: how a sync entry goes on the wire. The JSON is deflated before it is sealed (`e2.` with a
// key, `p2.` without) when that makes it smaller; entries older versions wrote (`e1.`, `p1.`) still open; a
// changed entry is SYNC_KEY, and one that inflates past MAX_INFLATED_BYTES is refused (SYNC_ENTRY_INVALID).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Memory } from "memwasm";
import { MAX_INFLATED_BYTES, open, seal } from "../../pkg/sync-crypto.mjs";

const T = { timeout: 30_000 };
const CLIENT = "c-0123";
const DIM = 384;
const KEY = await crypto.subtle.importKey("raw", new Uint8Array(32).fill(7), "AES-GCM", false, ["encrypt", "decrypt"]);
const OTHER_KEY = await crypto.subtle.importKey("raw", new Uint8Array(32).fill(8), "AES-GCM", false, ["encrypt", "decrypt"]);

const toBase64 = (bytes) => Buffer.from(bytes).toString("base64");
const place = (clientId, n) => new TextEncoder().encode(`memwasm-sync/v1:${clientId}:${n}`);

/** `bytes` sealed as the library does (IV, then ciphertext and tag), after `prefix`. */
async function sealBytes(prefix, key, clientId, n, bytes) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: place(clientId, n) }, key, bytes));
  return prefix + toBase64(Buffer.concat([iv, sealed]));
}

/** `chunks` deflated (zlib) as a stream, without holding what they inflate to. */
async function deflateStream(chunks) {
  let i = 0;
  const source = new ReadableStream({ pull: (c) => (i < chunks.length ? c.enqueue(chunks[i++]) : c.close()) });
  return new Uint8Array(await new Response(source.pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
}

/** A deterministic embedder: unit vectors from the text's SHA-256 (as incompressible as real ones). */
const hashEmbedder = {
  provider: "custom", dimensions: DIM,
  embed: async (texts) => texts.map((text) => {
    const v = [];
    for (let block = 0; v.length < DIM; block++) {
      const digest = createHash("sha256").update(`${block}:${text}`).digest();
      for (let i = 0; i < 32; i += 4) v.push(digest.readUInt32LE(i) / 2 ** 31 - 1);
    }
    const norm = Math.hypot(...v.slice(0, DIM));
    return v.slice(0, DIM).map((x) => x / norm);
  }),
};

/** Entries a store writes: `count` memories added, then sync started (one entry), and one update (one entry). */
async function realEntries(count) {
  const memory = await Memory.open({ llm: { provider: "none" }, embedder: hashEmbedder });
  const ids = [];
  for (let i = 0; i < count; i++) {
    const { results } = await memory.add(`Alice's note ${i}: she hikes in the Alps on weekends`, { userId: "alice", infer: false, metadata: { source: "chat" } });
    ids.push(results[0].id);
  }
  await memory.syncStart();
  const [first] = await memory.syncOutbox(10);
  await memory.syncAcknowledge(first.clientId, [first.n]);
  await memory.update(ids[0], "Alice hikes in the Dolomites now");
  const [update] = await memory.syncOutbox(10);
  memory.close();
  return { first, update };
}

const entry = (n, data) => ({ seq: 5, clientId: CLIENT, n, data });
const TEXT = JSON.stringify({ v: 1, memories: [{ id: "m1", memory: "Alice works at Acme ".repeat(20) }] });

describe("sync entries on the wire", () => {
  test("with a key: compressed and sealed (e2.), and open gives the JSON back", T, async () => {
    const data = await seal(KEY, CLIENT, 3, TEXT);
    assert.match(data, /^e2\.[A-Za-z0-9+/]+=*$/);
    assert.ok(!data.includes("Acme"));
    assert.equal(await open(KEY, entry(3, data)), TEXT);
  });

  test("without a key: compressed (p2.), and open gives the JSON back", T, async () => {
    const data = await seal(null, CLIENT, 3, TEXT);
    assert.match(data, /^p2\./);
    assert.ok(data.length < TEXT.length);
    assert.equal(await open(null, entry(3, data)), TEXT);
  });

  test("non-ASCII text survives the round trip", T, async () => {
    const text = JSON.stringify({ v: 1, memory: "Zoë mag Käse 🧀 — 東京 ".repeat(30) });
    assert.equal(await open(KEY, entry(1, await seal(KEY, CLIENT, 1, text))), text);
    assert.equal(await open(null, entry(1, await seal(null, CLIENT, 1, text))), text);
  });

  test("an entry that compression would not shrink keeps the old form (e1. / p1.)", T, async () => {
    const tiny = '{"v":1}';
    assert.match(await seal(KEY, CLIENT, 1, tiny), /^e1\./);
    assert.equal(await seal(null, CLIENT, 1, tiny), `p1.${tiny}`);
    assert.equal(await open(KEY, entry(1, await seal(KEY, CLIENT, 1, tiny))), tiny);
  });

  test("an entry larger than MAX_INFLATED_BYTES is not compressed: every reader can open what is written", T, async () => {
    const big = JSON.stringify({ v: 1, memory: "x".repeat(MAX_INFLATED_BYTES + 10) });
    const data = await seal(KEY, CLIENT, 1, big);
    assert.match(data, /^e1\./);
    assert.equal(await open(KEY, entry(1, data)), big);
  });

  test("entries older versions wrote (e1., p1.) still open", T, async () => {
    const old = await sealBytes("e1.", KEY, CLIENT, 4, new TextEncoder().encode(TEXT));
    assert.equal(await open(KEY, entry(4, old)), TEXT);
    assert.equal(await open(null, entry(4, `p1.${TEXT}`)), TEXT);
  });

  test("a changed compressed entry, or one moved to another place, is SYNC_KEY", T, async () => {
    const data = await seal(KEY, CLIENT, 3, TEXT);
    const bytes = Buffer.from(data.slice(3), "base64");
    bytes[20] ^= 1;
    await assert.rejects(open(KEY, entry(3, `e2.${toBase64(bytes)}`)), { code: "SYNC_KEY" });
    await assert.rejects(open(KEY, entry(4, data)), { code: "SYNC_KEY" }, "another number");
    await assert.rejects(open(KEY, { ...entry(3, data), clientId: "c-other" }), { code: "SYNC_KEY" }, "another client");
    await assert.rejects(open(OTHER_KEY, entry(3, data)), { code: "SYNC_KEY" }, "another key");
  });

  test("the key rules hold for compressed entries: p2. with a key, e2. without, are SYNC_KEY", T, async () => {
    await assert.rejects(open(KEY, entry(1, await seal(null, CLIENT, 1, TEXT))), { code: "SYNC_KEY" });
    await assert.rejects(open(null, entry(1, await seal(KEY, CLIENT, 1, TEXT))), { code: "SYNC_KEY" });
  });

  test("a decompression bomb is refused (SYNC_ENTRY_INVALID), sealed or plain, without holding what it inflates to", T, async () => {
    const zeros = new Uint8Array(1 << 20);
    const bomb = await deflateStream(Array(128).fill(zeros)); // 128 MiB of zeros in about 128 KB
    assert.ok(bomb.length < 200_000);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    await assert.rejects(open(null, entry(1, `p2.${toBase64(bomb)}`)), (error) => {
      assert.equal(error.code, "SYNC_ENTRY_INVALID");
      assert.match(error.message, /log entry 5 inflates to more than 8388608 bytes/);
      return true;
    });
    await assert.rejects(open(KEY, entry(2, await sealBytes("e2.", KEY, CLIENT, 2, bomb))), { code: "SYNC_ENTRY_INVALID" }, "a bomb from a device with the key");
    assert.ok(performance.now() - started < 5_000);
    assert.ok(process.memoryUsage().rss - before < 64 << 20, "half the 128 MiB the bomb inflates to (measured: 36 MiB)");
    // Just under the cap inflates.
    const under = await deflateStream([new TextEncoder().encode(" ".repeat(MAX_INFLATED_BYTES))]);
    assert.equal((await open(null, entry(1, `p2.${toBase64(under)}`))).length, MAX_INFLATED_BYTES);
  });

  test("compressed data that is not deflate, or not base64, is SYNC_ENTRY_INVALID", T, async () => {
    await assert.rejects(open(null, entry(1, `p2.${toBase64(new TextEncoder().encode(TEXT))}`)), { code: "SYNC_ENTRY_INVALID" });
    const data = await seal(null, CLIENT, 1, TEXT);
    const cut = Buffer.from(data.slice(3), "base64").subarray(0, -5);
    await assert.rejects(open(null, entry(1, `p2.${toBase64(cut)}`)), { code: "SYNC_ENTRY_INVALID" }, "a cut stream");
    await assert.rejects(open(null, entry(1, "p2.%%%")), { code: "SYNC_ENTRY_INVALID" });
    await assert.rejects(open(KEY, entry(1, await sealBytes("e2.", KEY, CLIENT, 1, new TextEncoder().encode(TEXT)))), { code: "SYNC_ENTRY_INVALID" });
  });

  test("a store's real entries travel smaller than in the old form (the 384-d vectors are most of them)", T, async () => {
    const { first, update } = await realEntries(10);
    const sizes = [];
    for (const { clientId, n, data } of [first, update]) {
      const sealed = await seal(KEY, clientId, n, data);
      assert.match(sealed, /^e2\./);
      assert.equal(await open(KEY, { seq: 1, clientId, n, data: sealed }), data);
      const old = await sealBytes("e1.", KEY, clientId, n, new TextEncoder().encode(data));
      sizes.push(sealed.length / old.length);
    }
    // Measured: 0.63 for 10 memories in one entry, 0.73 for one update (a vector's base64 deflates to
    // about its 1,536 raw bytes, and the wire's base64 puts back a third).
    assert.ok(sizes[0] < 0.72, `10 memories: ${sizes[0].toFixed(3)} of the old size`);
    assert.ok(sizes[1] < 0.8, `one update: ${sizes[1].toFixed(3)} of the old size`);
  });
});

// importConversations' options and sources: the dry run's counts and model-call estimate (nothing added, no
// model call), the sources it reads (text, bytes, Blob, a zip archive, a parsed value), progress reports,
// and the coded errors of bad options and a missing scope.
import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { Memory, T, makeMemory, rejectsWith, scriptedServer, testConfig } from "./helpers.mjs";
import { fixture, modelCalls, scriptFacts } from "./import-support.mjs";

const server = scriptedServer();
const alice = { userId: "alice" };

test("a dry run counts conversations, messages, chunks and model calls, and adds nothing", T, async () => {
  const archive = fixture("chatgpt-conversations.json");
  const dry = (memory, options) => memory.importConversations(archive, { ...alice, dryRun: true, ...options });
  const skipped = [{ conversationId: "conv-empty", why: "no messages" }];
  const counts = { dryRun: true, format: "chatgpt", conversations: 2, messages: 6, skipped };
  assert.deepEqual(await dry(makeMemory(server)), { ...counts, chunks: 2, modelCalls: 4 });
  assert.deepEqual(await dry(makeMemory(server), { chunkMessages: 1 }), { ...counts, chunks: 6, modelCalls: 12 });
  assert.deepEqual(await dry(makeMemory(server, { graph: { enabled: true } })), { ...counts, chunks: 2, modelCalls: 6 });
  assert.deepEqual(await dry(makeMemory(server, { pipeline: "additive" })), { ...counts, chunks: 2, modelCalls: 2 });
  assert.deepEqual(await dry(makeMemory(server), { infer: false }), { ...counts, chunks: 2, modelCalls: 0 });
  assert.deepEqual(await dry(new Memory({ ...testConfig(server), llm: { provider: "none" } })), { ...counts, chunks: 2, modelCalls: 0 });
  const memory = makeMemory(server);
  await dry(memory);
  assert.equal((await memory.getAll(alice)).results.length, 0);
  assert.equal(modelCalls(server), 0);
});

/** A zip archive holding `files` ({ name: text }), deflated. */
function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name);
    const data = deflateRawSync(Buffer.from(text));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(Buffer.byteLength(text), 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(Buffer.byteLength(text), 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

test("the export as text, bytes, a Blob, its zip archive or a parsed value reads the same", T, async () => {
  const text = fixture("claude-conversations.json");
  const memory = makeMemory(server);
  const expected = await memory.importConversations(text, { ...alice, dryRun: true });
  const bytes = new TextEncoder().encode(`\ufeff${text}`);
  const archive = zip({ "user.json": "{}", "Claude export/conversations.json": text });
  for (const source of [bytes, bytes.buffer, new Blob([bytes]), JSON.parse(text), archive, new Blob([archive])]) {
    assert.deepEqual(await memory.importConversations(source, { ...alice, dryRun: true }), expected);
  }
  await rejectsWith(() => memory.importConversations(zip({ "chat.html": "<p>" }), alice), "IMPORT_FORMAT",
    (e) => assert.match(e.message, /the zip archive holds no conversations.json \(it holds chat.html\)/));
  await rejectsWith(() => memory.importConversations(new Uint8Array([0xff, 0xfe, 0x00]), alice), "IMPORT_FORMAT");
});

test("progress counts conversations, messages, chunks and facts up to their totals", T, async () => {
  scriptFacts(server);
  const seen = [];
  await makeMemory(server).importConversations(fixture("chatgpt-conversations.json"), {
    ...alice, chunkMessages: 2, onProgress: (p) => seen.push(structuredClone(p)),
  });
  assert.equal(seen.length, 4, "one at the start and one per chunk");
  assert.deepEqual(seen[0], { conversations: { done: 0, total: 2 }, messages: { done: 0, total: 6 }, chunks: { done: 0, total: 3 }, facts: 0, replayed: 0 });
  assert.deepEqual(seen.at(-1), { conversations: { done: 2, total: 2 }, messages: { done: 6, total: 6 }, chunks: { done: 3, total: 3 }, facts: 3, replayed: 0 });
  for (const [a, b] of seen.slice(1).map((p, i) => [seen[i], p])) assert.ok(b.chunks.done === a.chunks.done + 1 && b.facts >= a.facts);
});

test("facts over the fact budget are counted as deleted, not lost without a word", T, async () => {
  scriptFacts(server);
  const memory = makeMemory(server, { limits: { maxFacts: 2 } });
  const report = await memory.importConversations(fixture("chatgpt-conversations.json"), { ...alice, chunkMessages: 2 });
  assert.equal(report.facts, 3);
  assert.equal(report.deleted, 1, "the third fact trimmed the least important, oldest one");
  assert.equal((await memory.getAll(alice)).results.length, report.facts - report.deleted);
});

test("bad options are INVALID_INPUT, no scope is SCOPE_REQUIRED, nothing sent", T, async () => {
  const memory = makeMemory(server);
  const archive = fixture("chatgpt-conversations.json");
  for (const [options, message] of [
    [{ ...alice, format: "gemini" }, /`format` must be "auto" or one of chatgpt, claude, mem0, memwasm/],
    [{ ...alice, chunkMessages: 0 }, /`chunkMessages` must be a whole number from 1 to 1000/],
    [{ ...alice, chunk_messages: 5 }, /`chunk_messages` is not an option/],
    [{ ...alice, signal: "stop" }, /`signal` must be an AbortSignal/],
    [{ userId: 7 }, /`userId` must be a non-empty string/],
  ]) {
    await rejectsWith(() => memory.importConversations(archive, options), "INVALID_INPUT", (e) => assert.match(e.message, message));
  }
  await rejectsWith(() => memory.importConversations(undefined, alice), "INVALID_INPUT");
  await rejectsWith(() => memory.importConversations(archive, {}), "SCOPE_REQUIRED");
  assert.equal(modelCalls(server), 0);
});

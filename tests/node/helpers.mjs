// Shared setup for the memwasm Node test suite (node:test + node:assert/strict only).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Memory } from "memwasm";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { scriptedServer } from "../support/server-per-file.mjs";

export { Memory };

/** Start of the default fact-extraction system prompt. */
export const EXTRACT = "You are an expert at extracting structured, atomic facts";
/** Start of the default update-decision system prompt. */
export const DECIDE = "You are a memory management system";

/** Per-test options: generous timeout so a hung request fails the test instead of the run. */
export const T = { timeout: 30_000 };

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const md5 = (text) => createHash("md5").update(text, "utf8").digest("hex");
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function startServer() {
  return startScriptedServer({ port: 0 });
}

/** One scripted server for the calling test file (see tests/support/server-per-file.mjs). */
export { scriptedServer };

/** The standard test config, pointed at `server`. `over` may replace llm/embedder config fields or top-level keys. */
export function testConfig(server, { llm = {}, embedder = {}, ...rest } = {}) {
  return {
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-llm", ...llm } },
    embedder: {
      provider: "openai",
      config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-embed", dimensions: 64, ...embedder },
    },
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...rest,
  };
}

export function makeMemory(server, over) {
  return new Memory(testConfig(server, over));
}

/** 2025-01-01T00:00:00Z, where clocked memories' time starts. */
export const START = Date.parse("2025-01-01T00:00:00Z");

/** A memory whose clock the test moves (`clock.t` is "now" in milliseconds): TTL, decay and timestamps
 * read it through the config's `now`, so no test sleeps. */
export function clockedMemory(server, over = {}) {
  const clock = { t: START };
  const mem = makeMemory(server, { now: () => clock.t, ...over });
  return { mem, clock };
}

/** Scripted reply to the fact-extraction call whose prompt contains every string of `match`. */
export function extraction(match, facts, extra = {}) {
  return { kind: "chat", match: [EXTRACT, ...[].concat(match)], reply: { facts }, ...extra };
}

/** Scripted reply (mem0 `{"memory": [...]}` format) to the update-decision call mentioning every string of `match`. */
export function decision(match, memory, extra = {}) {
  return { kind: "chat", match: [DECIDE, ...[].concat(match)], reply: { memory }, ...extra };
}

/** Decision entries that ADD every fact unchanged. */
export const addsFor = (facts) => facts.map((text) => ({ text, event: "ADD" }));

let seedCounter = 0;
/**
 * Store `facts` through the normal LLM pipeline (extraction + decision ADD, rules used once).
 * Returns the add() result; asserts every fact was ADDed.
 */
export async function seed(mem, server, facts, scope, { metadata } = {}) {
  const input = `seed-input-${++seedCounter}`;
  server.script([extraction(input, facts, { times: 1 }), decision(facts, addsFor(facts), { times: 1 })]);
  const res = await mem.add(input, { ...scope, ...(metadata ? { metadata } : {}) });
  assert.equal(res.results.length, facts.length, `seed: expected ${facts.length} ADD events, got ${JSON.stringify(res)}`);
  for (const ev of res.results) assert.equal(ev.event, "ADD", `seed: ${JSON.stringify(ev)}`);
  return res;
}

/** Id of the event/item whose memory text is `text`. */
export function idOf(list, text) {
  const found = list.find((x) => x.memory === text);
  assert.ok(found, `no entry with memory ${JSON.stringify(text)} in ${JSON.stringify(list)}`);
  return found.id;
}

/** Sorted memory texts of a result list. */
export const texts = (list) => list.map((x) => x.memory).sort();

/** Chat requests whose system prompt starts with `prefix`. */
export function chatCalls(server, prefix) {
  return server.requests("chat").filter((r) => String(r.body?.messages?.[0]?.content ?? "").startsWith(prefix));
}

/** The user-message content of a chat request. */
export function userContent(req) {
  const msg = req.body.messages.find((m) => m.role === "user");
  assert.ok(msg, "chat request has no user message");
  return msg.content;
}

/** Parse `Existing memories:` and `New facts:` JSON arrays out of an update-decision request. */
export function decisionPayload(req) {
  const text = userContent(req);
  return { existing: jsonArrayAfter(text, "Existing memories:"), facts: jsonArrayAfter(text, "New facts:") };
}

function jsonArrayAfter(text, label) {
  const at = text.indexOf(label);
  assert.notEqual(at, -1, `decision prompt lacks ${JSON.stringify(label)}:\n${text}`);
  const start = text.indexOf("[", at + label.length);
  assert.notEqual(start, -1, `no JSON array after ${label}`);
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return JSON.parse(text.slice(start, i + 1));
    }
  }
  assert.fail(`unterminated JSON array after ${label}`);
}

/**
 * Assert that `fn()` returns a promise rejecting with an Error whose `code` is `code`
 * (a synchronous throw is a contract violation: methods must reject). `check(err)` may assert more.
 * Returns the error.
 */
export async function rejectsWith(fn, code, check) {
  let promise;
  let caught;
  try {
    promise = fn();
  } catch (err) {
    assert.fail(`threw synchronously instead of rejecting: ${err?.code} ${err?.message}`);
  }
  assert.ok(promise && typeof promise.then === "function", "expected a promise");
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof Error, `expected an Error instance, got ${typeof err}: ${JSON.stringify(err)}`);
    assert.equal(typeof err.code, "string", `error has no string code: ${err.message}`);
    assert.equal(err.code, code, `expected code ${code}, got ${err.code}: ${err.message}`);
    if (check) check(err);
    caught = err;
    return true;
  });
  return caught;
}

/** Assert `() => new Memory(config)` throws synchronously with code INVALID_CONFIG. */
export function throwsInvalidConfig(config) {
  assert.throws(
    () => new Memory(config),
    (err) => {
      assert.ok(err instanceof Error, `expected an Error, got ${err}`);
      assert.equal(err.code, "INVALID_CONFIG", `config ${JSON.stringify(config)}: got ${err.code}: ${err.message}`);
      return true;
    },
    `config ${JSON.stringify(config)} should be rejected`,
  );
}

/** Warning codes of an add() result. */
export const warningCodes = (res) => (res.warnings ?? []).map((w) => w.code);

/** Assert an add() result has the documented shape. */
export function assertAddResult(res) {
  assert.ok(res && Array.isArray(res.results), `add() result lacks results[]: ${JSON.stringify(res)}`);
  assert.ok(Array.isArray(res.warnings), `add() result lacks warnings[]: ${JSON.stringify(res)}`);
  for (const w of res.warnings) {
    assert.equal(typeof w.code, "string");
    assert.equal(typeof w.message, "string");
  }
}

/**
 * Makes the memories of `scope` facts: drops the `role` that `add(…, {infer: false})` records, which marks a
 * conversation turn (keyword search reads a turn with the turn before it; fused methods raise it towards its
 * neighbours). Like `store()` of tests/retrieval/fixtures.rs: export, strip the role, import back.
 */
export async function asFacts(mem, scope) {
  const lines = (await mem.exportMemories(scope)).split("\n").filter(Boolean).map((line) => JSON.parse(line));
  for (const record of lines) {
    if (record.kind === "memory" && record.metadata) delete record.metadata.role;
  }
  await mem.importMemories(lines.map((record) => JSON.stringify(record)).join("\n"));
}

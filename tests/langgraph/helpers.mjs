// Shared by the LangGraph tests: one scripted model server per file (it answers embeddings
// deterministically; no LLM is called by the store), memories pointed at it, and a clock tests move.
import { after, before } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Memory } from "memwasm";
import { startScriptedServer } from "../support/scripted-server.mjs";

export const T = { timeout: 60_000 };
export const START = Date.parse("2025-01-01T00:00:00Z");

/** The server for the calling file, started before its tests and closed after them. */
export function scriptedServer() {
  const holder = {};
  before(async () => {
    holder.server = await startScriptedServer({ port: 0 });
  });
  after(() => holder.server?.close());
  return holder;
}

/** A memory config pointed at the server; `now` reads `clock.t` when a clock is given. */
export function config(holder, clock, more = {}) {
  const { baseUrl } = holder.server;
  return {
    llm: { provider: "openai", config: { baseUrl, apiKey: "test-key", model: "test-llm" } },
    embedder: { provider: "openai", config: { baseUrl, apiKey: "test-key", model: "test-embed", dimensions: 64 } },
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...(clock ? { now: () => clock.t } : {}),
    ...more,
  };
}

/** A fresh in-memory memory and its clock. */
export function clockedMemory(holder) {
  const clock = { t: START };
  return { memory: new Memory(config(holder, clock)), clock };
}

/** A temp folder removed after test `t`. */
export function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), "memwasm-langgraph-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `promise` rejects with a MemoryError of `code`. */
export async function rejectsWith(assert, promise, code) {
  await assert.rejects(promise, (error) => error?.name === "MemoryError" && error.code === code);
}

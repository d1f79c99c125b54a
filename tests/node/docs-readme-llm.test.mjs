// The README's block "With an LLM" runs as written against the scripted server: its placeholder keys become a
// test key and OPENAI_BASE_URL points its OpenAI LLM and embedder at the server (as in Node, where the config
// leaves the base URL out). The stand-in model pulls two facts out of the conversation, then updates the job,
// and the block's comments are what it gets: the ADDs, the UPDATE, the job found first and its history.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, scriptedServer } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { keepClaimed, runBlock, withEnv } from "./docs-run.mjs";

const server = scriptedServer();
const [block] = blocksRunBy("tests/node/docs-readme-llm.test.mjs");
const ACME = "User works at Acme Corp as a data scientist";
const BIGTECH = "User works at BigTech Inc as a data scientist";

/** The id under which the decision prompt lists `text`, read as a model reads it. */
const idIn = (prompt, text) => JSON.parse(prompt.split("Existing memories:\n")[1].split("\n")[0]).find((m) => m.text === text).id;

test("README: add() pulls facts out of a conversation and keeps them up to date, as the block's comments say", T, async () => {
  assert.equal(block?.page, "README.md", "the block is marked run by this file");
  server.script([
    { kind: "chat", match: ["## New Messages", "I'm Alice"], reply: { facts: ["User's name is Alice", ACME] } },
    { kind: "chat", match: ["New facts:\n[\"User's name is Alice\""],
      reply: { memory: [{ text: "User's name is Alice", event: "ADD" }, { text: ACME, event: "ADD" }] } },
    { kind: "chat", match: ["## New Messages", "BigTech"], reply: { facts: ["User now works at BigTech Inc"] } },
    { kind: "chat", match: ["New facts:\n[\"User now works at BigTech Inc\""],
      reply: ({ user }) => ({ memory: [{ id: idIn(user, ACME), event: "UPDATE", text: BIGTECH, old_memory: ACME }] }) },
  ]);
  const code = block.code.replaceAll(`apiKey: "sk-…"`, `apiKey: "test-key"`);
  assert.equal(code.match(/"test-key"/g).length, 2, "both placeholder keys are replaced");
  const claimed = new Map();
  const { results, found, trail } = await withEnv({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: server.baseUrl }, () =>
    runBlock(`${keepClaimed(code)}\nreturn { results, found, trail };`, { __import: (specifier) => import(specifier), __claimed: claimed }));

  // [{ id: "…", event: "ADD", memory: "User's name is Alice", newMemory: "…", metadata: {} }, …]
  assert.deepEqual(results.map((r) => [r.event, r.memory]), [["ADD", "User's name is Alice"], ["ADD", ACME]]);
  assert.deepEqual([results[0].newMemory, results[0].metadata], ["User's name is Alice", {}]);
  assert.equal(typeof results[0].id, "string");
  // → { event: "UPDATE", oldMemory: "User works at Acme Corp …", newMemory: "User works at BigTech Inc …" }
  const updated = claimed.get('→ { event: "UPDATE", oldMemory: "User works at Acme Corp …", newMemory: "User works at BigTech Inc …" }');
  assert.deepEqual(updated.results.map((r) => [r.event, r.oldMemory, r.newMemory]), [["UPDATE", ACME, BIGTECH]]);
  // found.results[0] is the job, and its history is ADD, then UPDATE (Acme Corp → BigTech Inc).
  assert.equal(found.results[0].memory, BIGTECH);
  assert.ok(found.results.length <= 3);
  assert.deepEqual(trail.map((h) => [h.event, h.oldValue ?? null, h.newValue]), [["ADD", null, ACME], ["UPDATE", ACME, BIGTECH]]);
  const chats = server.requests("chat");
  assert.equal(chats.length, 4, "one extraction and one decision per add()");
  for (const { body, headers } of chats) assert.deepEqual([body.model, headers.authorization], ["gpt-4o-mini", "Bearer test-key"]);
  for (const { body } of server.requests("embedding")) assert.equal(body.model, "text-embedding-3-small");
});

// docs/api.md's full config block runs as written against the scripted server, with tiktoken (js-tiktoken's
// o200k_base, gpt-4o-mini's encoding) as its exact tokenizer: only its base URLs and keys are the server's.
// An add() and a recall() show each commented setting at work.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEncoding } from "js-tiktoken";
import { countTokens } from "memwasm";
import { T, Memory as PackageMemory, scriptedServer } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const [block] = blocksRunBy("tests/node/docs-config-reference.test.mjs");

/** The block with the server's base URL and a key in place of the placeholders. */
function pointedAtServer(code) {
  const pointed = code.replaceAll(`baseUrl: "https://api.openai.com/v1"`, `baseUrl: "${server.baseUrl}"`)
    .replaceAll(`baseUrl: "…"`, `baseUrl: "${server.baseUrl}"`).replaceAll(`apiKey: "…"`, `apiKey: "test-key"`);
  assert.equal((pointed.match(new RegExp(server.baseUrl, "g")) ?? []).length, 2, "both base URLs are the server's");
  return pointed;
}

test("docs/api.md: the config reference block runs, and its model, prompts and tokenizer are the ones used", T, async () => {
  assert.equal(block?.page, "docs/api.md", "the block is marked run by this file");
  server.script([
    { kind: "chat", match: "## New Messages", reply: { facts: ["User likes green tea"] } },
    { kind: "chat", match: "New facts:", reply: { memory: [{ event: "ADD", text: "User likes green tea" }] } },
  ]);
  const made = [];
  /** The package's Memory, keeping what the block makes (the block's `new Memory(…)` is a statement). */
  function Memory(config) {
    const memory = new PackageMemory(config);
    made.push(memory);
    return memory;
  }
  const tiktoken = getEncoding("o200k_base");
  await runBlock(pointedAtServer(block.code), { Memory, tiktoken });
  const [memory] = made;
  assert.ok(memory instanceof PackageMemory);

  const added = await memory.add("I like green tea", { userId: "alice" });
  assert.deepEqual(added.results.map((r) => [r.event, r.memory]), [["ADD", "User likes green tea"]]);
  assert.deepEqual(added.warnings ?? [], []);
  const chats = server.requests("chat");
  assert.equal(chats.length, 2, "the fast pipeline: one extraction, one decision");
  for (const { body } of chats) {
    assert.equal(body.model, "gpt-4o-mini");
    assert.equal(body.temperature, 0);
    assert.equal(body.max_tokens, 2000);
    assert.deepEqual(body.response_format, { type: "json_object" }, "jsonMode");
    assert.equal(body.messages[0].content, "…", "customPrompts replace the system prompts");
  }
  const embeddings = server.requests("embedding");
  assert.ok(embeddings.length > 0);
  for (const { body } of embeddings) assert.deepEqual([body.model, body.dimensions], ["text-embedding-3-small", 1536]);

  const recalled = await memory.recall("tea", { userId: "alice", tokenBudget: 500 });
  assert.match(recalled.text, /User likes green tea/);
  const exact = tiktoken.encode(recalled.text).length;
  assert.notEqual(exact, countTokens(recalled.text), "tiktoken and the estimate differ on this text");
  assert.equal(recalled.totalTokens, exact, "countTokens counts recall's tokens");
});

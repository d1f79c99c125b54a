// The README's block "In Node" runs as written against the scripted server: `new Memory()` takes its key and
// base URL from OPENAI_API_KEY and OPENAI_BASE_URL, the stand-in model pulls two facts out of the message, and
// recall() hands back the block for a system prompt that the comment shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, scriptedServer } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { runBlock, withEnv } from "./docs-run.mjs";

const server = scriptedServer();
const [block] = blocksRunBy("tests/node/docs-readme-recall.test.mjs");
const FACTS = ["User is vegetarian", "User lives in Lisbon"];

test("README: recall() turns what add() stored into a <memory> block for a system prompt", T, async () => {
  assert.equal(block?.page, "README.md", "the block is marked run by this file");
  server.script([
    { kind: "chat", match: ["## New Messages", "I'm vegetarian"], reply: { facts: FACTS } },
    { kind: "chat", match: ["New facts:\n[\"User is vegetarian\""], reply: { memory: FACTS.map((text) => ({ text, event: "ADD" })) } },
  ]);
  const text = await withEnv({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl }, () =>
    runBlock(`${block.code}\nreturn text;`, { __import: (specifier) => import(specifier) }));
  // text: "<memory>\n[SEMANTIC] …\n</memory>", ready for a system prompt
  assert.match(text, /^<memory>\n(\[SEMANTIC\] .+\n)+<\/memory>$/);
  assert.deepEqual(text.split("\n").slice(1, -1).map((line) => line.replace("[SEMANTIC] ", "")).sort(), FACTS);
  assert.equal(server.requests("chat").length, 2, "one extraction and one decision");
});

// docs/openai-agents.md runs as written: each of its JavaScript blocks, with `config` pointed at the scripted
// server and the SDK's default model provider replaced by a scripted model (the SDK's ModelProvider interface).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setDefaultModelProvider } from "@openai/agents";
import { scriptBlocks } from "../node/docs-pages.mjs";
import { ScriptedModel, T, scriptedServer, testConfig } from "./helpers.mjs";

const server = scriptedServer();
const page = readFileSync(new URL("../../docs/openai-agents.md", import.meta.url), "utf8");
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;

/** `code` with its imports as awaited dynamic imports, run with `given` in scope. */
async function runBlock(code, given) {
  const body = code.replace(/^import\s+([\s\S]*?)\s+from\s+("[^"]+");?$/gm, (_, names, from) =>
    `const ${names.replace(/\s+as\s+/g, ": ")} = await import(${from});`);
  const names = Object.keys(given);
  await new AsyncFunction(...names, body)(...names.map((name) => given[name]));
}

test("docs/openai-agents.md: every JavaScript block runs", T, async () => {
  const blocks = scriptBlocks(page);
  assert.ok(blocks.length >= 1, "the page has an example");
  for (const block of blocks) {
    const model = new ScriptedModel(["Hello Alice!", "You live in Lisbon."]);
    setDefaultModelProvider({ getModel: () => model });
    const logged = [];
    const console = { log: (...args) => logged.push(args.join(" ")) };
    await runBlock(block.code, { config: testConfig(server), console }).catch((error) => {
      assert.fail(`docs/openai-agents.md:${block.line}: the block does not run: ${error.stack}`);
    });
    // The second log line, `4: two user turns, two replies`: the session holds four items.
    assert.deepEqual(logged, ["You live in Lisbon.", "4"], `docs/openai-agents.md:${block.line} logs what it says`);
    assert.match(JSON.stringify(model.inputs[1]), /I'm Alice and I live in Lisbon/, "the second run saw the first");
  }
});

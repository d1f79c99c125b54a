// docs/ai-sdk.md runs as written (tests/node/docs-examples.test.mjs, which has no `ai`, leaves it to this file):
// each JavaScript block, in order, against the scripted server, with `model` a MockLanguageModelV4 scripted
// for that block and `memory` a memory holding one of alice's memories; then what the block did is checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MockLanguageModelV4 } from "ai/test";
import { scriptBlocks } from "../node/docs-pages.mjs";
import { addRules, answer, callTool, makeMemory, memoryTexts, scriptedServer, streamed, T, toolResults } from "./helpers.mjs";

const server = scriptedServer();
const page = readFileSync(new URL("../../docs/ai-sdk.md", import.meta.url), "utf8");
const AsyncFunction = (async () => {}).constructor;
const alice = { userId: "alice" };

/** `code` with its imports turned into awaited `__import(…)` calls (resolved from this folder). */
function withoutImports(code) {
  return code.replace(/^import\s+([\s\S]*?)\s+from\s+("[^"]+");?$/gm, (_, names, from) => {
    const bound = names.trim().startsWith("{") ? names.replace(/\s+as\s+/g, ": ") : `{ default: ${names.trim()} }`;
    return `const ${bound} = await __import(${from});`;
  });
}

/** Per block, in page order: the model it is given and what must hold after it ran. */
const BLOCKS = [
  {
    model: () => new MockLanguageModelV4({ doGenerate: [callTool("addMemory", { content: "User is vegetarian" }), answer("Noted.")] }),
    check: async ({ said }) => {
      assert.match(said[0], /^Noted\. /);
      assert.match(said[0], /"event":"ADD"/);
      assert.match(said[0], /"memory":"User is vegetarian"/);
    },
  },
  {
    setup: () => server.script(addRules("What should I cook tonight", ["User asks what to cook tonight"])),
    model: () => new MockLanguageModelV4({ doGenerate: answer("A green tea risotto.") }),
    check: async ({ said, model, memory }) => {
      assert.deepEqual(said, ["A green tea risotto."]);
      const system = model.doGenerateCalls[0].prompt[0];
      // The system prompt the comments show: `<memory>`, `[SEMANTIC] User likes green tea`, `</memory>`.
      assert.match(system.content, /<memory>\n\[SEMANTIC\] User likes green tea\n<\/memory>\n\nYou are a cooking assistant\.$/);
      await memory.idle();
      assert.deepEqual(await memoryTexts(memory, alice), ["User asks what to cook tonight", "User likes green tea"]);
    },
  },
  {
    model: () => new MockLanguageModelV4({
      doStream: [streamed(callTool("searchMemories", { query: "tea" })), streamed(answer("A sencha."))],
    }),
    check: async ({ said, model }) => {
      assert.deepEqual(said, ["A sencha."]);
      assert.deepEqual(model.doStreamCalls[0].tools.map((t) => t.name), ["searchMemories", "addMemory"]);
      const [[, found]] = toolResults(model.doStreamCalls[1].prompt);
      assert.equal(found.results[0].memory, "User likes green tea");
      for (const call of model.doStreamCalls) assert.match(call.prompt[0].content, /User likes green tea/);
    },
  },
];

test("docs/ai-sdk.md: every JavaScript block runs and does what the page says", T, async () => {
  const blocks = scriptBlocks(page);
  assert.equal(blocks.length, BLOCKS.length, "one expectation per block of the page");
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = "test-key";
  process.env.OPENAI_BASE_URL = server.baseUrl;
  try {
    for (const [i, block] of blocks.entries()) {
      const { setup, model: makeModel, check } = BLOCKS[i];
      server.reset();
      setup?.();
      const memory = makeMemory(server);
      await memory.add("User likes green tea", { ...alice, infer: false });
      const model = makeModel();
      const said = [];
      const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));
      const console = { log: (...args) => said.push(args.map(show).join(" ")) };
      const given = { __import: (specifier) => import(specifier), model, memory, console };
      const body = withoutImports(block.code);
      // A block that declares one of these names itself (its own `memory`) gets none.
      const names = Object.keys(given).filter((n) => !new RegExp(`\\b(const|let|var)\\s+${n}\\b`).test(body));
      try {
        await new AsyncFunction(...names, body)(...names.map((n) => given[n]));
      } catch (error) {
        assert.fail(`docs/ai-sdk.md:${block.line}: the block does not run: ${error.stack}`);
      }
      await check({ said, model, memory });
    }
  } finally {
    for (const [name, value] of [["OPENAI_API_KEY", saved.key], ["OPENAI_BASE_URL", saved.url]]) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});

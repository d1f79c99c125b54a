// docs/providers.md's config block (it reads a Worker's `env.AI` and a page's WebLLM
// `engine` and transformers.js `extractor`) also runs in Node as written, with stand-ins for those three and
// no provider key in the environment: each `new Memory(…)` starts, so every example carries what it needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "memwasm";
import { blocksRunBy } from "./docs-pages.mjs";

const KEYS = ["OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY",
  "TOGETHER_API_KEY", "OPENROUTER_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_BASE_URL"];

test("docs/providers.md: every example config starts as written, with no key in the environment", () => {
  const [block] = blocksRunBy("tests/node/docs-providers.test.mjs");
  assert.equal(block?.page, "docs/providers.md", "the block is marked run by this file");
  const saved = Object.fromEntries(KEYS.map((name) => [name, process.env[name]]));
  for (const name of KEYS) delete process.env[name];
  const made = [];
  class Counted extends Memory {
    constructor(config) {
      super(config);
      made.push(config);
    }
  }
  try {
    const body = block.code.replace(/^import .*$/gm, "");
    const env = { AI: { run: async () => ({}) } };
    const engine = { chat: { completions: { create: async () => ({ choices: [{ message: { content: "{}" } }] }) } } };
    const extractor = async () => ({ tolist: () => [] });
    try {
      new Function("Memory", "env", "engine", "extractor", body)(Counted, env, engine, extractor);
    } catch (error) {
      assert.fail(`docs/providers.md:${block.line}: example ${made.length + 1} does not start as written: ${error.code} ${error.message}`);
    }
  } finally {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  }
  assert.ok(made.length >= 10, `${made.length} examples ran`);
});

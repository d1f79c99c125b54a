// docs/otel.md runs as written (tests/node/docs-examples.test.mjs, which has no OpenTelemetry, leaves it to
// this file): its JavaScript block, against the scripted server, registers the SDK itself and prints the
// spans of one add() and one search(); what it printed is checked against what the page says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { scriptBlocks } from "../node/docs-pages.mjs";
import { addRules, scriptedServer, T } from "./helpers.mjs";

const server = scriptedServer();
const page = readFileSync(new URL("../../docs/otel.md", import.meta.url), "utf8");
const AsyncFunction = (async () => {}).constructor;

/** `code` with its imports turned into awaited `__import(…)` calls (resolved from this folder). */
function withoutImports(code) {
  return code.replace(/^import\s+([\s\S]*?)\s+from\s+("[^"]+");?$/gm, (_, names, from) => {
    const bound = names.trim().startsWith("{") ? names.replace(/\s+as\s+/g, ": ") : `{ default: ${names.trim()} }`;
    return `const ${bound} = await __import(${from});`;
  });
}

test("docs/otel.md: the JavaScript block runs and prints the spans the page describes", T, async () => {
  const [block, ...more] = scriptBlocks(page);
  assert.equal(more.length, 0, "one block, checked here");
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = "test-key";
  process.env.OPENAI_BASE_URL = server.baseUrl;
  server.script(addRules("I like green tea", ["User likes green tea"]));
  const printed = [];
  const console = { log: (name, attributes) => printed.push({ name, attributes }) };
  try {
    const run = new AsyncFunction("__import", "console", withoutImports(block.code));
    await run((specifier) => import(specifier), console).catch((error) => {
      assert.fail(`docs/otel.md:${block.line}: the block does not run: ${error.stack}`);
    });
  } finally {
    for (const [name, value] of [["OPENAI_API_KEY", saved.key], ["OPENAI_BASE_URL", saved.url]]) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const names = printed.map((p) => p.name.split(" ")[0]);
  const add = names.indexOf("upsert_memory");
  const search = names.indexOf("search_memory");
  assert.ok(add >= 0 && search > add, names.join(", "));
  assert.ok(names.slice(0, add).includes("chat") && names.slice(0, add).includes("embeddings"), "the add's model calls end first");
  assert.deepEqual(names.slice(add + 1, search), ["embeddings"], "the search's one embedding call");
  assert.equal(printed[search].attributes["gen_ai.memory.record.count"], 1);
  assert.equal(printed[add].attributes["gen_ai.operation.name"], "upsert_memory");
});

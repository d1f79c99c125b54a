// docs/langgraph.md runs as written (docs-examples.test.mjs leaves it here, where LangGraph is installed):
// each JavaScript block against the scripted server, `config` pointing at it, in a temp folder; what a
// `console.log(…)` prints is what the comment after it says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { format } from "node:util";
import { Memory } from "memwasm";
import { scriptBlocks } from "../node/docs-pages.mjs";
import { T, config, scriptedServer, tempDir } from "./helpers.mjs";

const server = scriptedServer();
const page = readFileSync(new URL("../../docs/langgraph.md", import.meta.url), "utf8");
const AsyncFunction = (async () => {}).constructor;

/** `code` with its `import … from "…"` lines as awaited `__import(…)` calls. */
const withoutImports = (code) => code.replace(/^import\s+([\s\S]*?)\s+from\s+("[^"]+");?$/gm,
  (_, names, from) => `const ${names.replace(/\s+as\s+/g, ": ")} = await __import(${from});`);

test("docs/langgraph.md: every JavaScript block runs and logs what its comments say", T, async (t) => {
  const blocks = scriptBlocks(page);
  assert.ok(blocks.length >= 2, `${blocks.length} blocks`);
  const cwd = process.cwd();
  process.chdir(tempDir(t));
  t.after(() => process.chdir(cwd));
  for (const block of blocks) {
    assert.equal(block.marked, false, `docs/langgraph.md:${block.line} runs here, unmarked`);
    const said = [];
    const console = { log: (...args) => said.push(format(...args)) };
    const body = withoutImports(block.code);
    const names = ["__import", "config", "console", ...(/import \{ Memory \}/.test(block.code) ? [] : ["Memory"])];
    const given = { __import: (specifier) => import(specifier), config: config(server), console, Memory };
    await new AsyncFunction(...names, body)(...names.map((name) => given[name])).catch((error) => {
      assert.fail(`docs/langgraph.md:${block.line}: the block does not run: ${error.stack}`);
    });
    const expected = [...block.code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map(([, comment]) => comment.split(/: (?!')/)[0]);
    assert.ok(said.length > 0, `docs/langgraph.md:${block.line} logs`);
    // Each console.log's comment up to its first ": ", as the page claims them: [ 'Alice loves Thai food' ],
    // then [ 'a', 'c' ] and null: its 5 minutes are up (the item past its TTL).
    assert.deepEqual(said, expected, `docs/langgraph.md:${block.line}`);
  }
});

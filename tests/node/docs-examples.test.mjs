// Every JavaScript block of the manual (README.md and docs/*.md) runs as written, against the scripted server,
// unless the line above it is `<!-- type-checked -->` (docs-types.test.mjs checks those) or `<!-- run by FILE -->`
// (that test runs it, with the weights, packages or scripted replies it needs, and asserts its outputs). A block gets the
// package's `Memory` and `MemoryError` when it does not import them; `memory`,
// a memory of the standard test config holding one of alice's memories, unless it makes its own; `config`, that
// config; and the app's own `readme`, `chat` and `render` that some blocks call. `OPENAI_API_KEY` and
// `OPENAI_BASE_URL` point at the scripted server, so `new Memory()` reaches it. A failure names the page and line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { T, Memory, makeMemory, scriptedServer, testConfig } from "./helpers.mjs";
import { ROOT, RUN_ELSEWHERE, blocksRunBy, codeBlocks, pages, scriptBlocks } from "./docs-pages.mjs";
import { runBlock, withEnv } from "./docs-run.mjs";
import { scratchFolder } from "./sqlite-support.mjs";
import { MemoryError } from "memwasm";

const server = scriptedServer();
// Blocks may write files (a SQLite database at "memory.db"): they land in a folder of their own.
process.chdir(scratchFolder());


/** Runs one block in a fresh context; resolves with what it logged. */
async function run(code) {
  const memory = makeMemory(server);
  await memory.add("User likes green tea", { userId: "alice", infer: false });
  const said = [];
  const console = { warn: (...args) => said.push(args.join(" ")), log: (...args) => said.push(args.join(" ")) };
  const given = {
    __import: (specifier) => import(specifier),
    Memory,
    MemoryError,
    console,
    memory,
    config: testConfig(server),
    readme: readFileSync(new URL("../../README.md", import.meta.url), "utf8"),
    chat: async () => "Noted.",
    render: () => {},
  };
  await runBlock(code, given);
  return said;
}

for (const page of pages()) {
  const blocks = scriptBlocks(page.text).filter((block) => !block.marked && !block.runBy);
  if (blocks.length === 0 || RUN_ELSEWHERE[page.name]) continue;
  test(`${page.name}: every JavaScript block not marked type-checked runs`, T, async () => {
    await withEnv({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl }, async () => {
      for (const block of blocks) {
        await run(block.code).catch((error) => {
          assert.fail(`${page.name}:${block.line}: the block does not run (mark it <!-- type-checked --> if it cannot run offline): ${error.stack}`);
        });
      }
    });
  });
}

test("docs: the pages run elsewhere are read by the test that runs them", () => {
  for (const [page, file] of Object.entries(RUN_ELSEWHERE)) {
    const source = readFileSync(new URL(file, ROOT), "utf8");
    assert.ok(source.includes(page.replace(/^docs\//, "")), `${file} reads ${page}`);
  }
});

test("docs: a block marked `run by FILE` names a test file that reads its page", () => {
  const named = pages().flatMap((page) => codeBlocks(page.text).filter((b) => b.runBy).map((b) => ({ ...b, page: page.name })));
  assert.ok(named.length >= 25, `${named.length} blocks are run by tests of their own`);
  for (const block of named) {
    const file = new URL(block.runBy, ROOT);
    assert.ok(existsSync(file), `${block.page}:${block.line}: ${block.runBy} exists`);
    assert.ok(readFileSync(file, "utf8").includes(`blocksRunBy(`), `${block.runBy} runs the blocks marked with its name`);
    assert.ok(blocksRunBy(block.runBy).length > 0);
  }
});

test("docs: blocks run here", () => {
  const count = pages().reduce((n, page) => n + (RUN_ELSEWHERE[page.name] ? 0 : scriptBlocks(page.text).filter((b) => !b.marked && !b.runBy).length), 0);
  assert.ok(count >= 12, `${count} blocks run`);
  assert.equal(typeof Memory, "function");
});

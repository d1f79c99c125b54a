// docs/import.md's blocks run as written against the scripted models (bench/lib/import-models.mjs: one fact per user
// message, every new fact added), over a ChatGPT export of 3 conversations written by bench/lib/chatgpt-archive.mjs
// as `conversations.json` in a folder of its own: the Node block's dry run, import and re-import answer what their
// comments claim (read from the page); the browser block, its Cancel pressed by the first progress report, stops
// with what was committed and the same call again completes it; the CLI lines estimate, then import into the file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { symlinkSync, writeFileSync } from "node:fs";
import { T, Memory, makeMemory, scriptedServer } from "./helpers.mjs";
import { blocksRunBy, claimedOutputs, ROOT } from "./docs-pages.mjs";
import { keepClaimed, runBlock, withEnv } from "./docs-run.mjs";
import { scratchFolder } from "./sqlite-support.mjs";
import { chatgptArchive } from "../../bench/lib/chatgpt-archive.mjs";
import { importModelRules } from "../../bench/lib/import-models.mjs";

const server = scriptedServer();
const [block, browser, cli] = blocksRunBy("tests/node/docs-import.test.mjs");
const ARCHIVE = JSON.stringify(chatgptArchive({ conversations: 3, seed: 1, branchEvery: 3 }));
const env = () => ({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl });

/** A claim's object: `{ a: 1, … }` → `[{a: 1}, partial]` (with "…" the claim names some of the fields). */
function claimed(text) {
  const literal = text.slice(text.indexOf("→") + 1).trim();
  const partial = literal.includes("…");
  return [Function(`return (${literal.replace(/…,\s*/g, "").replace(/,\s*…/g, "")});`)(), partial];
}

/** Whether `actual` is what `text` claims: every field it names, and no other unless it says "…". */
function assertClaim(actual, text) {
  const [expected, partial] = claimed(text);
  const shown = partial ? Object.fromEntries(Object.keys(expected).map((key) => [key, actual?.[key]])) : actual;
  assert.deepEqual(shown, expected, `the claim "${text}"`);
}

test("docs/import.md: the dry run, the import and the re-import answer what the comments claim", T, async () => {
  assert.equal(block?.page, "docs/import.md", "the blocks are marked run by this file");
  process.chdir(scratchFolder());
  writeFileSync("conversations.json", ARCHIVE);
  server.script(importModelRules());
  const results = new Map();
  const said = [];
  await withEnv(env(), () => runBlock(keepClaimed(block.code), {
    __import: (specifier) => import(specifier), __claimed: results, console: { log: (...args) => said.push(args.join(" ")) },
  }));
  const claims = claimedOutputs(block);
  assert.equal(claims.length, 3, "a claim for the dry run, the import and the import again");
  for (const claim of claims) assertClaim(results.get(claim.text), claim.text);
  assert.equal(said.length, 1 + results.get(claims[1].text).chunks, "onProgress heard before the first chunk and after each");
  assert.equal(said.at(-1), `3 ${results.get(claims[1].text).messages} ${results.get(claims[1].text).facts}`, "the last report: every conversation, message and fact");
});

test("docs/import.md: the browser block's Cancel stops the import between chunks; the same call again completes it", T, async () => {
  assert.equal(browser?.page, "docs/import.md");
  server.script(importModelRules());
  const memory = makeMemory(server);
  const cancelButton = {};
  const values = [];
  // The bar's first value past 0 presses Cancel: the chunk that reported it is committed, the next is not sent.
  const bar = { set value(v) { values.push(v); if (v > 0 && values.filter((x) => x > 0).length === 1) cancelButton.onclick(); } };
  const importChosen = await runBlock(`${browser.code}\nreturn importChosen;`, { __import: (specifier) => import(specifier), memory });
  await importChosen({ files: [new Blob([ARCHIVE])] }, cancelButton, bar);
  assert.ok(values.at(-1) > 0 && values.at(-1) < 1, `stopped part-way: ${values}`);
  const part = (await memory.getAll({ userId: "alice" })).results.length;
  assert.ok(part > 0, "what was committed stays");
  const report = await memory.importConversations(new Blob([ARCHIVE]), { userId: "alice" });
  assert.equal(report.replayed, 1, "the committed chunk replays");
  assert.equal((await memory.getAll({ userId: "alice" })).results.length, part + report.facts);
});

test("docs/import.md: the CLI's dry run adds nothing, its import fills the file", { timeout: 60_000 }, async () => {
  assert.equal(cli?.page, "docs/import.md");
  process.chdir(scratchFolder());
  writeFileSync("conversations.json", ARCHIVE);
  server.script(importModelRules());
  // A project of the user's, with better-sqlite3 installed (Node 20 has no node:sqlite): the tests' own.
  symlinkSync(new URL("tests/node_modules", ROOT).pathname, "node_modules");
  const bin = new URL("pkg/bin/memwasm.mjs", ROOT).pathname;
  const lines = cli.code.split("\n").filter((line) => line.startsWith("./node_modules/.bin/memwasm "));
  assert.equal(lines.length, 2);
  // Not execFileSync: the scripted server answers from this process.
  const run = async (line) => (await promisify(execFile)(process.execPath, [bin, ...line.slice("./node_modules/.bin/memwasm ".length).split(/\s+/)],
    { env: { ...process.env, ...env() }, encoding: "utf8" })).stdout;
  const estimate = JSON.parse(await run(lines[0]));
  assert.equal(server.count("chat"), 0, "the dry run calls no model");
  // Graph memory is on, as in memwasm mcp: 3 calls per chunk.
  assert.deepEqual([estimate.dryRun, estimate.conversations, estimate.chunks, estimate.modelCalls], [true, 3, 3, 9], "the estimate, as JSON");
  const report = JSON.parse(await run(lines[1]));
  assert.equal(server.count("chat"), 9, "the import makes the calls estimated");
  assert.deepEqual([report.conversations, report.replayed], [3, 0]);
  assert.equal(JSON.parse(await run(lines[1])).replayed, 3, "run again, it replays every chunk");
  assert.equal(server.count("chat"), 9, "at no model cost");
  const memory = await Memory.open({ llm: { provider: "none" }, embedder: { provider: "none" }, storage: { provider: "sqlite", config: { path: "memory.db" } } });
  try {
    const kept = (await memory.getAll({ userId: "alice" })).results;
    assert.ok(kept.length > 0, "the file holds the imported memories");
    assert.ok((await memory.sources(kept[0].id))[0].conversationId, "each with its source's conversation");
  } finally {
    memory.close();
  }
});

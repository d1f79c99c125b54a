// A comment in a code block of the manual that claims an output (`// → {deleted: 1}`, `// [ 'a', 'c' ]`,
// `# {"copied": 1000, …}`, a comment on a `console.log` line) is asserted by the test that runs the block: the
// block is marked `<!-- run by FILE -->` (or its page is run by a test of its own), and that test either quotes
// the claim, word for word, as the comment of the assertion that checks it, or reads the block's claims from
// the page (`claimedOutputs(block)`) and compares the result with them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ROOT, RUN_ELSEWHERE, claimedOutputs, codeBlocks, pages } from "./docs-pages.mjs";

/** Every claim of the manual: `{where, text, runBy}`. */
function claims() {
  return pages().flatMap((page) => codeBlocks(page.text).flatMap((block) => claimedOutputs(block).map((claim) => ({
    where: `${page.name}:${claim.line}`, text: claim.text, runBy: block.runBy ?? RUN_ELSEWHERE[page.name],
  }))));
}

/** The source of the test at `file` (from the repository root). */
const sources = new Map();
const source = (file) => sources.get(file) ?? sources.set(file, readFileSync(new URL(file, ROOT), "utf8")).get(file);

test("docs: every output a code block claims is asserted by the test that runs the block", () => {
  const all = claims();
  assert.ok(all.length >= 30, `the claims are found (${all.length})`);
  const asserts = (c) => c.runBy && (source(c.runBy).includes(c.text) || source(c.runBy).includes("claimedOutputs(block)"));
  const unasserted = all.filter((c) => !asserts(c))
    .map((c) => `${c.where}: ${c.text}${c.runBy ? ` (not quoted by ${c.runBy})` : " (no test runs the block)"}`);
  assert.deepEqual(unasserted, [], `claims no test asserts:\n${unasserted.join("\n")}`);
});

test("docs: arrows, values, named values and console.log comments are claims; other comments are not", () => {
  const block = {
    lang: "js",
    line: 10,
    code: [
      'const url = "http://127.0.0.1:8000"; // the server, required: 3–512 characters',
      "await memory.decay({ userId: \"u\" }); // {decayed, forgotten}",
      'await memory.deleteRelations(rels); // → {deleted: 1}',
      "console.log(await run()); // 4: two turns",
      "// stored: 3, discarded: 1",
      "// chunks: [",
      '//   { text: "…", stored: true },',
      "// ]",
      "// One call per message, in the order they arrive.",
      'await memory.add("x", { userId: "u" }); // a preference: memoryType "procedural"',
      "const f = (x) => x; // a helper",
    ].join("\n"),
  };
  assert.deepEqual(claimedOutputs(block).map((c) => [c.line, c.text]), [
    [12, "{decayed, forgotten}"],
    [13, "→ {deleted: 1}"],
    [14, "4: two turns"],
    [15, "stored: 3, discarded: 1"],
    [16, "chunks: ["],
    [17, '{ text: "…", stored: true },'],
    [18, "]"],
  ]);
  const shell = { lang: "sh", line: 1, code: 'curl -X POST "$URL#x" # {"copied": 1000}  → repeat\nnpx wrangler deploy # deploys the Worker' };
  assert.deepEqual(claimedOutputs(shell).map((c) => c.text), ['{"copied": 1000}  → repeat']);
});

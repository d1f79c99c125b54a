// docs/documents.md's ingest block runs as written against the scripted server, on a document of four
// paragraphs (`readme`: a billing note, a preference, what the user is doing right now, and small talk) in a
// scope that already holds small talk. The result is compared with the comment's claims, read from the
// page (claimedOutputs): the counts, and each chunk's text, tokens, importance, type and whether it was stored;
// the second ingest makes no embedding request and finds the stored chunks as DUPLICATE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, scriptedServer } from "./helpers.mjs";
import { blocksRunBy, claimedOutputs } from "./docs-pages.mjs";
import { keepClaimed, runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const [block] = blocksRunBy("tests/node/docs-documents.test.mjs");

const README = [
  "# Billing",
  "",
  "The billing service stores invoices in Postgres and keeps one row per invoice line. Each invoice has a customer, a currency and a due date, and the service sends a reminder three days before the due date. Refunds are new invoice lines with a negative amount, so an invoice is never edited after it is sent. The nightly export writes every invoice of the day to the finance bucket as CSV, and the finance team reconciles it against the bank statement each morning. Taxes are computed by the tax service when an invoice is created and stored with the line, so a later change of the tax rules does not change an old invoice.",
  "",
  "I prefer short answers with code first and the explanation after it. When a change touches the billing service, I like a test that shows the bug before the fix, and I prefer small commits that each keep the build green, with a message that says what changed and why.",
  "",
  "Right now I am moving the billing page to the new design system, so for now the old page and the new one live side by side behind a flag. At the moment the flag is on for the internal team only, and this session is about the invoice table and its filters.",
  "",
  "Yesterday we had lunch and talked about the weather, the traffic and the lunch place. We went to lunch, had lunch, talked about lunch and the weather, and the traffic on the way back from lunch was bad, like the weather. After lunch we talked about the weather again, and about the traffic, and about where to have lunch next week, and the weather.",
].join("\n");
const SMALL_TALK = ["We had lunch and talked about the weather", "The traffic was bad on the way back from lunch", "Lunch with the team, talked about the weather and traffic"];

/** The chunks the comment claims: each `{ text: "…", tokens: N, importance: X, memoryType: "…", stored: B, reason? }`. */
function claimedChunks(claims) {
  const text = claims.map((c) => c.text).join(" ");
  return [...text.matchAll(/\{ text: "((?:[^"\\]|\\.)*)", ([^}]*)\}/g)].map(([, start, fields]) => ({
    start: JSON.parse(`"${start}"`).replace(/ ?…$/, ""),
    tokens: Number(/tokens: (\d+)/.exec(fields)[1]),
    importance: Number(/importance: ([\d.]+)/.exec(fields)[1]),
    memoryType: /memoryType: "(\w+)"/.exec(fields)[1],
    stored: /stored: true/.test(fields),
    reason: /reason: "(\w+)"/.exec(fields)?.[1],
  }));
}

test("docs/documents.md: ingest() keeps the chunks that matter, as the block's comments say, and knows them again", T, async () => {
  assert.equal(block?.page, "docs/documents.md", "the block is marked run by this file");
  const claims = claimedOutputs(block);
  const memory = makeMemory(server);
  for (const text of SMALL_TALK) await memory.add(text, { userId: "alice", infer: false });
  const claimed = new Map();
  const embeddingsBefore = () => server.requests("embedding").length;
  const code = block.code.replace(/^await memory\.ingest\(/m, "const again = await memory.ingest(");
  const { chunks, stored, discarded, again, embedded } = await runBlock(
    code.replace("const again", "const embedded = __count();\nconst again") + "\nreturn { chunks, stored, discarded, again, embedded: __count() - embedded };",
    { memory, readme: README, __claimed: claimed, __count: embeddingsBefore });

  const counts = /^stored: (\d+), discarded: (\d+)$/.exec(claims[0].text);
  assert.ok(counts, `the first claim gives the counts: ${claims[0].text}`);
  assert.deepEqual([stored, discarded], [Number(counts[1]), Number(counts[2])]);
  const expected = claimedChunks(claims);
  assert.equal(expected.length, 4, "the comment shows four chunks");
  const shown = chunks.map((c, i) => ({ start: c.text.slice(0, expected[i]?.start.length ?? 0), tokens: c.tokens,
    importance: c.importance, memoryType: c.memoryType, stored: c.stored, reason: c.reason }));
  assert.deepEqual(shown, expected);
  assert.ok(chunks.filter((c) => c.stored).every((c) => typeof c.id === "string"));

  const last = claims.at(-1).text;
  assert.equal(last, "no embedding request; stored chunks → DUPLICATE");
  assert.equal(embedded, 0, "no embedding request");
  assert.deepEqual(again.chunks.map((c) => c.reason), chunks.map((c) => (c.stored ? "DUPLICATE" : c.reason)));
  assert.deepEqual(again.chunks.filter((c) => c.reason === "DUPLICATE").map((c) => c.id), chunks.filter((c) => c.stored).map((c) => c.id));
});

// Token counting (issue 15 item 6): every budget (recall, context windows, formatForInjection, chunks) counts
// with the library's estimate — exported as `countTokens` — unless the config's `countTokens` callback supplies
// an exact tokenizer. Here the real cl100k_base BPE from npm `js-tiktoken` is plugged in, and the estimate is
// checked against it (docs/token-counting.md has the full error table).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { countTokens } from "memwasm";
import { T, makeMemory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const bpe = new Tiktoken(cl100k);
const exact = (text) => bpe.encode(text).length;

const SAMPLES = [
  "I moved from Berlin to Lisbon last spring and I love the light here.",
  "Please always answer in French, and keep code blocks short.",
  "const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0);",
  '{"userId": "alice", "maxTokens": 400, "keepLast": 6}',
  "Meeting on 2025-03-14 at 09:30 with Dr. Müller about the Q2 budget (€12,500).",
  "记忆很重要。我们明天见。",
];

test("the estimate stays close to cl100k_base and leans towards over-counting", T, () => {
  let real = 0;
  let estimated = 0;
  for (const text of SAMPLES) {
    const [e, r] = [countTokens(text), exact(text)];
    real += r;
    estimated += e;
    assert.ok(e >= r * 0.9 - 2, `under-counted: ${e} < ${r} for ${JSON.stringify(text)}`);
  }
  assert.ok(estimated >= real && estimated <= real * 1.3, `total ${estimated} vs real ${real}`);
});

test("an exact tokenizer plugged in through `countTokens` drives every budget", T, async () => {
  const seen = [];
  const mem = makeMemory(server, { countTokens: (text) => (seen.push(text), exact(text)) });
  const window = await mem.context({ userId: "alice", maxTokens: 1000 }).push("Hello there, how are you today?");
  assert.equal(window.totalTokens, exact("user") + exact("Hello there, how are you today?") + 4);
  await mem.add("Drinks green tea every morning", { userId: "alice", infer: false });
  const block = await mem.formatForInjection({ userId: "alice", maxTokens: 200 });
  assert.equal(block.totalTokens, exact(block.text));
  assert.ok(seen.length > 0, "the callback was called");
  const fallback = makeMemory(server, { countTokens: () => "many" });
  const counted = await fallback.context({ userId: "alice", maxTokens: 1000 }).push("Hello there");
  assert.equal(counted.totalTokens, countTokens("user") + countTokens("Hello there") + 4, "a bad answer falls back to the estimate");
  assert.throws(() => makeMemory(server, { countTokens: 42 }), (e) => e.code === "INVALID_CONFIG");
});

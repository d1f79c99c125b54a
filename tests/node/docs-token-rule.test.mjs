// The manual states one token rule: the estimate src/core/tokens.rs computes (or an injected countTokens).
// The ¼-token-per-character rule it replaced may be named only as the old rule, in the sentences that compare
// it (docs/token-counting.md, the Token counting paragraph of docs/agents-and-tiers.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pages } from "./docs-pages.mjs";

const OLD_RULE = /(quarter|¼) token per (ASCII )?character/i;

/** The sentences of `text`, line breaks joined. */
function sentences(text) {
  return text.split(/(?<=[.:;])\s+|\n\s*\n/).map((sentence) => sentence.replace(/\s+/g, " "));
}

test("docs: no page states the old quarter-token-per-character rule as the one the library uses", () => {
  const stated = pages().flatMap((page) =>
    sentences(page.text)
      .filter((text) => OLD_RULE.test(text) && !/\bold\b|\bwas\b/.test(text))
      .map((text) => `${page.name}: ${text}`),
  );
  assert.deepEqual(stated, []);
});

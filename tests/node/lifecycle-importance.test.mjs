// Memory lifecycle: importance at write time, hand-checked through the API:
//   importance = 0.6 · novelty + 0.4 · salience, rounded to 4 decimals, where
//   novelty  = 1 − cos(new vector, mean of the scope's live vectors), clamped to [0, 1]; 1.0 in an empty scope;
//   salience = named entity +0.3, number or date +0.2, preference +0.4, rare technical term +0.1 (≤ 1.0).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

const axis = (i, dim = 64) => Array.from({ length: dim }, (_, j) => (j === i ? 1 : 0));
const round4 = (x) => Math.round(x * 10_000) / 10_000;

/** Importance of `text` added verbatim as the first memory of a fresh scope (novelty 1.0). */
let scopes = 0;
async function firstImportance(mem, text) {
  const userId = `fresh-${++scopes}`;
  const { results } = await mem.add(text, { userId, infer: false });
  return (await mem.get(results[0].id)).importance;
}

describe("novelty", () => {
  test("novelty: 1.0 in an empty scope, 0 for the same vector, 1 orthogonal, else 1 − cosine", T, async () => {
    const mem = makeMemory(server);
    const plain = "plain words here"; // no salience signal: importance = 0.6 · novelty
    const importanceOf = async (key, embedding) => {
      const { id } = await mem.store(key, plain, { userId: "u", embedding });
      return (await mem.get(id)).importance;
    };
    assert.equal(await importanceOf("a", axis(0)), 0.6, "empty scope: novelty 1.0");
    assert.equal(await importanceOf("b", axis(0).map((x) => 5 * x)), 0, "same direction as the centroid e0");
    assert.equal(await importanceOf("c", axis(1)), 0.6, "orthogonal to the centroid e0");
    // Centroid of e0, e0, e1 = (2/3, 1/3): cos(e0, centroid) = 2/√5.
    assert.equal(await importanceOf("d", axis(0)), round4(0.6 * (1 - 2 / Math.sqrt(5))));
    assert.equal(await importanceOf("e", axis(0).map((x) => -x)), 0.6, "opposite: 1 − (−cos) clamps to 1");
  });

  test("novelty is per scope, over live memories only", T, async () => {
    const mem = makeMemory(server, { now: () => Date.parse("2025-01-01T00:00:00Z") });
    await mem.store("x", "plain words here", { userId: "u", embedding: axis(3) });
    const other = await mem.store("y", "plain words here", { userId: "w", embedding: axis(3) });
    assert.equal((await mem.get(other.id)).importance, 0.6, "u's memories do not make w's less novel");
    await mem.store("gone", "plain words here", { userId: "v", embedding: axis(4), expiresAt: "2024-01-01T00:00:00Z" });
    const after = await mem.store("z", "plain words here", { userId: "v", embedding: axis(4) });
    assert.equal((await mem.get(after.id)).importance, 0.6, "an expired memory is not in the centroid");
  });
});

describe("salience", () => {
  test("each signal adds its weight (first memory of a scope, so importance = 0.6 + 0.4 · salience)", T, async () => {
    const mem = makeMemory(server);
    const cases = [
      ["the sky looks grey today", 0],
      ["User works at Acme", 0.3], // a capitalised word that does not start a sentence
      ["Berlin is large", 0], // starting a sentence is no sign of a name
      ["it is big. Berlin is large", 0], // nor after a full stop
      ["I think so", 0], // "I" is no name
      ["meeting moved to monday", 0.2], // weekday
      ["bought 3 apples", 0.2], // digit
      ["User prefers tea", 0.4],
      ["User can't stand loud music", 0.4],
      ["likes snake_case names", 0.1], // identifier-shaped word
      ["uses internationalization daily", 0.1], // a word of 14+ letters
      ["User prefers PostgreSQL at Acme since 2019", 1.0], // 0.3 + 0.2 + 0.4 + 0.1
    ];
    const got = [];
    for (const [text] of cases) got.push([text, await firstImportance(mem, text)]);
    assert.deepEqual(got, cases.map(([text, salience]) => [text, round4(0.6 + 0.4 * salience)]));
  });

  test("a given importance is used as is; pinned memories keep their computed importance", T, async () => {
    const mem = makeMemory(server);
    const given = (await mem.add("bought 3 apples", { userId: "g", infer: false, importance: 0.33 })).results[0].id;
    assert.equal((await mem.get(given)).importance, 0.33);
    for (const importance of [0, 1]) {
      const { id } = await mem.store(`k${importance}`, "v", { userId: "g", importance });
      assert.equal((await mem.get(id)).importance, importance);
    }
    const pinned = (await mem.add("User works at Acme", { userId: "p", infer: false, pinned: true })).results[0].id;
    assert.equal((await mem.get(pinned)).importance, 0.72);
  });
});

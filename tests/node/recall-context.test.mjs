// recall(query, {…scope, topK, tokenBudget, filters}): the <memory> block, procedural
// memories first, never over the token budget.
import { test } from "node:test";
import assert from "node:assert/strict";
import { countTokens } from "memwasm";
import { T, makeMemory, rejectsWith, scriptedServer } from "./helpers.mjs";

// The example memories of the recall design, in its order.
const SEED = [
  ["semantic", "User is a backend engineer specializing in Python and PostgreSQL."],
  ["semantic", "User is building a SaaS product with FastAPI and Stripe integration."],
  ["procedural", "Communication style: direct, technical, no preamble."],
  ["episodic", "2024-01-20: Discussed database migration from MySQL to PostgreSQL."],
  ["episodic", "2024-01-18: User reported issue with Alembic autogenerate on enums."],
];
const QUERY = "What is the user working on?";

/** The library's token count (the estimate every budget uses; docs/token-counting.md). */
const approxTokens = countTokens;

const server = scriptedServer();

/** The seed memories for alice, with vectors whose cosine to the query falls in the design's order. */
async function seedMemory() {
  const vector = (angle) => [Math.cos(angle), Math.sin(angle), ...new Array(62).fill(0)];
  server.script([
    ...SEED.map(([, text], i) => ({ kind: "embedding", match: text, vector: vector(0.2 * (i + 1)) })),
    { kind: "embedding", match: QUERY, vector: vector(0) },
  ]);
  const memory = makeMemory(server);
  // Nearly parallel vectors make every memory but the first look stale (low novelty, so low importance);
  // these tests are about the block, so the seeded memories are marked important.
  for (const [type, text] of SEED) {
    await memory.add(text, { userId: "alice", metadata: { type }, infer: false, importance: 0.9 });
  }
  await memory.add("Prefers answers in German", { userId: "bob", metadata: { type: "procedural" }, infer: false });
  return memory;
}

test("text is the <memory> block, procedural first", T, async () => {
  const memory = await seedMemory();
  const recalled = await memory.recall(QUERY, { userId: "alice", method: "vector" });
  assert.equal(
    recalled.text,
    [
      "<memory>",
      "[PROCEDURAL] Communication style: direct, technical, no preamble.",
      "[SEMANTIC] User is a backend engineer specializing in Python and PostgreSQL.",
      "[SEMANTIC] User is building a SaaS product with FastAPI and Stripe integration.",
      "[EPISODIC] 2024-01-20: Discussed database migration from MySQL to PostgreSQL.",
      "[EPISODIC] 2024-01-18: User reported issue with Alembic autogenerate on enums.",
      "</memory>",
    ].join("\n"),
  );
  assert.deepEqual(recalled.memories.map((m) => m.memory), [SEED[2][1], SEED[0][1], SEED[1][1], SEED[3][1], SEED[4][1]]);
  assert.equal(recalled.method, "vector");
  assert.equal(recalled.totalTokens, approxTokens(recalled.text));
  assert.equal(recalled.budgetUsed, recalled.totalTokens / 2000);
  assert.ok(!recalled.text.includes("German"), "another user's preference stays out");
});

test("defaults: top 5 by hybrid; topK and filters narrow it", T, async () => {
  const memory = await seedMemory();
  await memory.add("User has a dog named Rex", { userId: "alice", infer: false, importance: 0.9 });
  const recalled = await memory.recall(QUERY, { userId: "alice" });
  assert.equal(recalled.method, "hybrid");
  assert.equal(recalled.memories.length, 5);
  assert.equal(recalled.memories[0].memory, SEED[2][1]);
  for (const line of recalled.text.split("\n").slice(1, -1)) assert.match(line, /^\[(SEMANTIC|PROCEDURAL|EPISODIC)\] \S/);

  const two = await memory.recall(QUERY, { userId: "alice", topK: 2, method: "vector" });
  assert.deepEqual(two.memories.map((m) => m.memory), [SEED[2][1], SEED[0][1]]);
  const episodes = await memory.recall(QUERY, {
    userId: "alice", method: "vector", filters: { field: "type", operator: "eq", value: "episodic" },
  });
  assert.equal(episodes.text, `<memory>\n[EPISODIC] ${SEED[3][1]}\n[EPISODIC] ${SEED[4][1]}\n</memory>`);
});

test("the token budget is never exceeded", T, async () => {
  const memory = await seedMemory();
  let sawPartial = false;
  for (let tokenBudget = 1; tokenBudget <= 120; tokenBudget++) {
    const recalled = await memory.recall(QUERY, { userId: "alice", method: "vector", tokenBudget });
    assert.ok(recalled.totalTokens <= tokenBudget, `${tokenBudget}: ${recalled.text}`);
    assert.equal(recalled.totalTokens, approxTokens(recalled.text));
    assert.equal(recalled.text === "", recalled.memories.length === 0);
    if (recalled.memories.length > 0 && recalled.memories.length < 5) sawPartial = true;
  }
  assert.ok(sawPartial, "some budgets admit only part of the memories");
  const none = await memory.recall(QUERY, { userId: "alice", tokenBudget: 3 });
  assert.deepEqual(none, { memories: [], totalTokens: 0, budgetUsed: 0, text: "", method: "hybrid" });
});

test("bad options reject with a code", T, async () => {
  const memory = await seedMemory();
  await rejectsWith(() => memory.recall(QUERY, {}), "SCOPE_REQUIRED");
  await rejectsWith(() => memory.recall("", { userId: "alice" }), "INVALID_INPUT");
  await rejectsWith(() => memory.recall(42, { userId: "alice" }), "INVALID_INPUT");
  await rejectsWith(() => memory.recall(QUERY, { userId: "alice", topK: -1 }), "INVALID_INPUT");
  await rejectsWith(() => memory.recall(QUERY, { userId: "alice", limit: 0 }), "INVALID_INPUT");
  await rejectsWith(() => memory.recall(QUERY, { userId: "alice", tokenBudget: 1.5 }), "INVALID_INPUT");
  await rejectsWith(() => memory.recall(QUERY, { userId: "alice", tokenBudget: "2000" }), "INVALID_INPUT");
  await rejectsWith(() => memory.recall(QUERY, { userId: "alice", method: "fuzzy" }), "INVALID_INPUT");
  await rejectsWith(() => memory.recall(QUERY, { userId: "alice", filters: { AND: 1 } }), "INVALID_FILTER");
});

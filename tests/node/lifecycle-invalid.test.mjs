// Memory lifecycle: bad input. Each bad lifecycle option of add() and store() — a negative or non-finite TTL,
// an importance outside [0, 1], an unknown memory type, an expiresAt without a time zone, ttl with expiresAt,
// a non-boolean pin, an embedding of the wrong length — rejects with a coded error before anything is
// stored or any model is called. Also the `now` config key.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, rejectsWith, throwsInvalidConfig, testConfig, scriptedServer, clockedMemory, START } from "./helpers.mjs";

const server = scriptedServer();


const BAD_OPTIONS = [
  ["a negative ttl", { ttl: -1 }, "INVALID_INPUT"],
  ["a string ttl", { ttl: "60000" }, "INVALID_INPUT"],
  ["importance below 0", { importance: -0.01 }, "INVALID_INPUT"],
  ["importance above 1", { importance: 1.01 }, "INVALID_INPUT"],
  ["a string importance", { importance: "high" }, "INVALID_INPUT"],
  ["an unknown memory type", { memoryType: "habit" }, "INVALID_INPUT"],
  ["expiresAt without a time zone", { expiresAt: "2025-02-01T00:00:00" }, "INVALID_INPUT"],
  ["expiresAt as a date alone", { expiresAt: "2025-02-01" }, "INVALID_INPUT"],
  ["an impossible expiresAt", { expiresAt: "2025-02-30T00:00:00Z" }, "INVALID_INPUT"],
  ["expiresAt in words", { expiresAt: "tomorrow" }, "INVALID_INPUT"],
  ["expiresAt as a number", { expiresAt: START + 1000 }, "INVALID_INPUT"],
  ["ttl and expiresAt together", { ttl: 1000, expiresAt: "2025-02-01T00:00:00Z" }, "INVALID_INPUT"],
  ["a non-boolean pinned", { pinned: "yes" }, "INVALID_INPUT"],
];

// BUG: non-finite numbers are silently dropped. from_js (src/js/convert.rs) converts every argument to a
// serde_json::Value first, and serde_json has no NaN or ±Infinity, so they become `null`, i.e. "not given":
// add()/store() with ttl NaN or Infinity store a memory that never expires, importance NaN gets the computed
// importance, decay({halfLifeDays: NaN}) runs with 30, getAll({offset: Infinity}) reads from 0. The Rust
// checks that would refuse them (`ttl.is_finite()`, `!(0..=1).contains(NaN)`, `half_life_days.is_finite()`,
// read.rs's offset and threshold checks) never see them.
const NON_FINITE_OPTIONS = [
  ["a NaN ttl", { ttl: NaN }, "INVALID_INPUT"],
  ["an infinite ttl", { ttl: Infinity }, "INVALID_INPUT"],
  ["a NaN importance", { importance: NaN }, "INVALID_INPUT"],
];

const clocked = (over) => clockedMemory(server, over);

/** Asserts the memory holds nothing and no model was called. */
async function assertNothingStored(mem, why) {
  const stats = await mem.stats();
  assert.equal(stats.totalEntries + stats.expired, 0, `${why}: ${JSON.stringify(stats)}`);
  assert.deepEqual((await mem.getAll({ userId: "u", includeDeleted: true })).results, [], why);
  assert.equal(server.count("chat"), 0, `${why}: no LLM call`);
  assert.equal(server.count("embedding"), 0, `${why}: no embedding call`);
}

describe("add() and store() refuse bad lifecycle options", () => {
  for (const [name, options, code] of BAD_OPTIONS) {
    test(`${name}: ${code}, nothing stored`, T, async () => {
      const { mem } = clocked();
      await rejectsWith(() => mem.add("User works at Acme", { userId: "u", ...options }), code);
      await rejectsWith(() => mem.add("User works at Acme", { userId: "u", infer: false, ...options }), code);
      await rejectsWith(() => mem.store("k", "v", { userId: "u", ...options }), code);
      await assertNothingStored(mem, name);
    });
  }

  for (const [name, options, code] of NON_FINITE_OPTIONS) {
    test(`${name}: ${code}, nothing stored`, T, async () => {
      const { mem } = clocked();
      const outcome = async (call) => call().then(() => "accepted", (err) => err.code);
      const got = {
        add: await outcome(() => mem.add("User works at Acme", { userId: "u", infer: false, ...options })),
        store: await outcome(() => mem.store("k", "v", { userId: "u", ...options })),
      };
      assert.deepEqual(got, { add: code, store: code });
      assert.equal((await mem.stats()).totalEntries, 0);
    });
  }

  test("non-finite numbers in the other new options are INVALID_INPUT too", T, async () => {
    const { mem } = clocked();
    await mem.add("User works at Acme", { userId: "u", infer: false, importance: 0.8 });
    const outcome = async (call) => call().then(() => "accepted", (err) => err.code);
    const got = {
      "decay halfLifeDays NaN": await outcome(() => mem.decay({ halfLifeDays: NaN })),
      "decay forgetBelow NaN": await outcome(() => mem.decay({ forgetBelow: NaN })),
      "getAll offset Infinity": await outcome(() => mem.getAll({ userId: "u", offset: Infinity })),
      "getAll offset NaN": await outcome(() => mem.getAll({ userId: "u", offset: NaN })),
    };
    assert.deepEqual(got, Object.fromEntries(Object.keys(got).map((k) => [k, "INVALID_INPUT"])));
  });

  test("store(): an embedding of the wrong length is DIMENSION_MISMATCH, nothing stored", T, async () => {
    const { mem } = clocked();
    const { id } = await mem.store("dims", "sets the index to 64", { userId: "x" });
    await rejectsWith(() => mem.store("k", "v", { userId: "u", embedding: new Array(63).fill(0.5) }), "DIMENSION_MISMATCH");
    await rejectsWith(() => mem.store("k", "v", { userId: "u", embedding: "0.5,0.5" }), "INVALID_INPUT");
    await mem.delete(id);
    server.reset();
    await assertNothingStored(mem, "wrong-length embedding");
  });

  test("a refused write over the limit trims nothing", T, async () => {
    const { mem } = clocked({ limits: { maxMemoriesPerScope: 1 } });
    await mem.add("kept", { userId: "u", infer: false });
    await rejectsWith(() => mem.add("refused", { userId: "u", infer: false, ttl: -5 }), "INVALID_INPUT");
    await rejectsWith(() => mem.store("k", "refused", { userId: "u", importance: 2 }), "INVALID_INPUT");
    assert.deepEqual((await mem.getAll({ userId: "u" })).results.map((m) => m.memory), ["kept"]);
  });

  test("unknown option keys are refused by name", T, async () => {
    const { mem } = clocked();
    await rejectsWith(() => mem.add("x", { userId: "u", infer: false, expires: 5 }), "INVALID_INPUT", (err) =>
      assert.match(err.message, /expires/),
    );
    await rejectsWith(() => mem.store("k", "v", { userId: "u", pin: true }), "INVALID_INPUT", (err) =>
      assert.match(err.message, /pin/),
    );
    await assertNothingStored(mem, "unknown keys");
  });
});

describe("the now config key", () => {
  test("now must be a function", T, () => {
    for (const now of [5, "2025-01-01T00:00:00Z", new Date(START), {}]) throwsInvalidConfig(testConfig(server, { now }));
  });

  test("a clock that throws or returns no finite time falls back to the system clock", T, async () => {
    for (const now of [() => { throw new Error("clock broke"); }, () => NaN, () => "soon", () => undefined]) {
      const mem = makeMemory(server, { now });
      const before = Date.now();
      const { id } = await mem.store("k", "v", { userId: "u" });
      const created = Date.parse((await mem.get(id)).createdAt);
      assert.ok(created >= before - 1 && created <= Date.now() + 1, `${now}: ${created}`);
    }
  });

  test("the clock is read at every call (a live value, not a snapshot)", T, async () => {
    const clock = { t: START };
    const mem = makeMemory(server, { now: () => clock.t });
    const a = await mem.store("a", "first", { userId: "u" });
    clock.t += 5000;
    const b = await mem.store("b", "second", { userId: "u" });
    assert.equal((await mem.get(a.id)).createdAt, new Date(START).toISOString());
    assert.equal((await mem.get(b.id)).createdAt, new Date(START + 5000).toISOString());
  });
});

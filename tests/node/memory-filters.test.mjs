// Filter expressions on getAll / search / add.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { T, md5, sleep, startServer, makeMemory, seed, texts, rejectsWith, chatCalls, DECIDE, decisionPayload, extraction } from "./helpers.mjs";

const DATA = {
  A: ["User likes Python for ML", { tag: "work", priority: 1, lang: "python", active: true, info: { team: "ml", level: 3 } }],
  B: ["User writes JavaScript daily", { tag: "work", priority: 5, lang: "js", active: false, info: { team: "web", level: 1 } }],
  C: ["User plays tennis on weekends", { tag: "personal", priority: 2, info: { team: "club", level: 2 } }],
  // ---- `midpoint` is taken here ----
  D: ["User reads science fiction", { tag: "hobby", priority: 8 }],
  E: ["User enjoys python scripting", { tag: "spam", priority: 4, lang: "python" }],
  F: ["User likes agent tips", { tag: "work", priority: 3 }], // also agentId "bot"
};
const SCOPE = { userId: "f" };

let server;
let mem;
let midpoint;
const ids = {};

before(async () => {
  server = await startServer();
  mem = makeMemory(server);
  for (const key of ["A", "B", "C", "D", "E", "F"]) {
    if (key === "D") {
      await sleep(20);
      midpoint = new Date().toISOString();
      await sleep(20);
    }
    const [text, metadata] = DATA[key];
    const scope = key === "F" ? { ...SCOPE, agentId: "bot" } : SCOPE;
    ids[key] = (await seed(mem, server, [text], scope, { metadata })).results[0].id;
  }
  await seed(mem, server, ["User likes work from another scope"], { userId: "g" }, { metadata: { tag: "work" } });
});
after(async () => {
  await server?.close();
});

const expected = (letters) => letters.split("").map((k) => DATA[k][0]).sort();
async function assertGetAll(filters, letters) {
  const { results } = await mem.getAll({ ...SCOPE, filters });
  assert.deepEqual(texts(results), expected(letters), `filter ${JSON.stringify(filters)}`);
}
const cond = (field, operator, value) => ({ field, operator, value });

describe("operators on metadata", () => {
  const cases = [
    ["eq (case 27)", cond("tag", "eq", "work"), "ABF"],
    ["eq boolean", cond("active", "eq", true), "A"],
    ["ne", cond("tag", "ne", "work"), "CDE"],
    ["ne is true when the field is missing", cond("lang", "ne", "python"), "BCDF"],
    ["eq is false when the field is missing", cond("lang", "eq", "python"), "AE"],
    ["gt", cond("priority", "gt", 4), "BD"],
    ["gte", cond("priority", "gte", 4), "BDE"],
    ["lt", cond("priority", "lt", 3), "AC"],
    ["lte", cond("priority", "lte", 3), "ACF"],
    ["gt on strings skips missing fields", cond("lang", "gt", "a"), "ABE"],
    ["in (case 28)", cond("tag", "in", ["work", "hobby"]), "ABDF"],
    ["nin", cond("tag", "nin", ["work", "spam"]), "CD"],
    ["nin is true when the field is missing", cond("lang", "nin", ["python"]), "BCDF"],
    ["contains on metadata", cond("lang", "contains", "py"), "AE"],
    ["nested dotted path eq", cond("info.team", "eq", "web"), "B"],
    ["nested dotted path gte", cond("info.level", "gte", 2), "AC"],
  ];
  for (const [name, filters, letters] of cases) {
    test(name, T, () => assertGetAll(filters, letters));
  }
});

describe("top-level fields", () => {
  test("contains on memory is case-sensitive (case 32), icontains is not", T, async () => {
    await assertGetAll(cond("memory", "contains", "Python"), "A");
    await assertGetAll(cond("memory", "icontains", "PYTHON"), "AE");
  });

  test("memory, id and hash", T, async () => {
    await assertGetAll(cond("memory", "eq", "User reads science fiction"), "D");
    await assertGetAll(cond("id", "eq", ids.A), "A");
    await assertGetAll(cond("id", "in", [ids.A, ids.D]), "AD");
    await assertGetAll(cond("hash", "eq", md5(DATA.B[0])), "B");
  });

  test("createdAt / updatedAt compare as ISO timestamps (snake_case too)", T, async () => {
    await assertGetAll(cond("createdAt", "gte", midpoint), "DEF");
    await assertGetAll(cond("createdAt", "lt", midpoint), "ABC");
    await assertGetAll(cond("created_at", "lt", midpoint), "ABC");
    await assertGetAll(cond("updatedAt", "gte", "2000-01-01"), "ABCDEF");
  });

  test("scope fields: agentId / agent_id / userId", T, async () => {
    await assertGetAll(cond("agentId", "eq", "bot"), "F");
    await assertGetAll(cond("agent_id", "eq", "bot"), "F");
    await assertGetAll(cond("agentId", "ne", "bot"), "ABCDE");
    await assertGetAll(cond("userId", "eq", "f"), "ABCDEF");
  });

  test("filters cannot widen the scope", T, async () => {
    await assertGetAll(cond("userId", "eq", "g"), "");
    const other = await mem.getAll({ userId: "g", filters: cond("tag", "eq", "work") });
    assert.deepEqual(texts(other.results), ["User likes work from another scope"]);
  });
});

describe("composition", () => {
  test("AND (case 29)", T, () => assertGetAll({ AND: [cond("tag", "eq", "work"), cond("priority", "lt", 3)] }, "A"));
  test("OR (case 30)", T, () => assertGetAll({ OR: [cond("tag", "eq", "hobby"), cond("priority", "eq", 2)] }, "CD"));
  test("NOT (case 31)", T, () => assertGetAll({ NOT: cond("tag", "eq", "work") }, "CDE"));
  test("nested AND / OR / NOT", T, () =>
    assertGetAll(
      {
        AND: [
          { OR: [cond("memory", "icontains", "python"), cond("tag", "eq", "personal")] },
          { NOT: cond("priority", "gte", 4) },
        ],
      },
      "AC",
    ));
  test("mem0 shorthand: every key equals", T, async () => {
    await assertGetAll({ tag: "work" }, "ABF");
    await assertGetAll({ tag: "work", lang: "js" }, "B");
  });
});

describe("filters on search and add", () => {
  test("search applies filters before ranking (case 27)", T, async () => {
    const { results } = await mem.search("python", { ...SCOPE, filters: cond("tag", "eq", "work") });
    assert.deepEqual(texts(results), expected("ABF"));
    assert.equal(results[0].memory, DATA.A[0]);
    for (let i = 1; i < results.length; i++) assert.ok(results[i - 1].score >= results[i].score);
    const top = await mem.search("python", { ...SCOPE, limit: 1, filters: { NOT: cond("tag", "eq", "work") } });
    assert.deepEqual(texts(top.results), [DATA.E[0]]);
  });

  test("add uses filters to choose which memories the decision LLM sees", T, async () => {
    server.script(extraction("python again", ["User likes python a lot"], { times: 1 }));
    await mem.add("python again", { ...SCOPE, filters: cond("tag", "eq", "spam") });
    const { existing } = decisionPayload(chatCalls(server, DECIDE).at(-1));
    assert.deepEqual(existing.map((e) => e.text), [DATA.E[0]]);
  });
});

describe("malformed filters reject INVALID_FILTER", () => {
  const bad = {
    "unknown operator": cond("tag", "like", "work"),
    "in with a non-array value": cond("tag", "in", "work"),
    "nin with a non-array value": cond("tag", "nin", 5),
    "missing field": { operator: "eq", value: "work" },
    "AND that is not an array": { AND: cond("tag", "eq", "work") },
    "OR that is not an array": { OR: "x" },
    "gt with an object value": cond("priority", "gt", { a: 1 }),
    "a bad condition nested in AND": { AND: [cond("tag", "eq", "work"), cond("tag", "bogus", 1)] },
  };
  for (const [name, filters] of Object.entries(bad)) {
    test(name, T, async () => {
      await rejectsWith(() => mem.getAll({ ...SCOPE, filters }), "INVALID_FILTER");
      await rejectsWith(() => mem.search("python", { ...SCOPE, filters }), "INVALID_FILTER");
    });
  }

  test("add with a malformed filter rejects and stores nothing", T, async () => {
    const before = (await mem.getAll(SCOPE)).results.length;
    server.script(extraction("tennis again", ["User plays squash"], { times: 1 }));
    await rejectsWith(() => mem.add("tennis again", { ...SCOPE, filters: cond("tag", "like", "x") }), "INVALID_FILTER");
    assert.equal((await mem.getAll(SCOPE)).results.length, before);
  });
});

// mem0's filter language on the worker's platform API (worker/src/mem0_api/filters.rs), operator by
// operator, through `POST /mem0/v3/memories/` (get all) and `/search/`. The memories are stored verbatim
// (infer: false), so no model is scripted.
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, test } from "node:test";
import { T, startServer } from "./helpers.mjs";
import { mem0Call, startMem0Worker, store } from "./mem0-helpers.mjs";

let server;
let worker;
const id = {};
const at = {};
before(async () => {
  server = await startServer();
  worker = await startMem0Worker(server);
  const seeds = [
    ["Alpha", "Alpha tea note", { user_id: "u1" }, { topic: "food", level: 3, tags: ["x", "y"], categories: ["finance", "Health"] }],
    ["Beta", "Beta coffee memo", { user_id: "u1", agent_id: "a1", run_id: "r1" }, { topic: "work", level: 7 }],
    ["Gamma", "Gamma TEA log", { user_id: "u2", app_id: "app1" }, { topic: "food", level: 5 }],
    ["Delta", "Delta agent fact", { agent_id: "a2", run_id: "r2" }, {}],
  ];
  for (const [name, text, entities, metadata] of seeds) {
    [id[name]] = await store(worker, [text], entities, { metadata });
    await sleep(15); // distinct created_at
  }
  [id.Echo] = await store(worker, ["Echo expired"], { user_id: "u3" }, { expiration_date: "2020-01-01" });
  for (const name of Object.keys(id)) {
    at[name] = (await mem0Call(worker, "GET", `/mem0/v1/memories/${id[name]}/`)).body.created_at;
  }
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

/** The first words of the memories get all returns for `filters` (oldest first). */
async function names(filters, extra = {}) {
  const { status, body } = await mem0Call(worker, "POST", "/mem0/v3/memories/", { body: { filters, ...extra } });
  assert.equal(status, 200, JSON.stringify(body));
  return body.results.map((m) => m.memory.split(" ")[0]);
}

/** Asserts a 400 whose `detail` matches `pattern`. */
async function refused(filters, pattern) {
  const { status, body } = await mem0Call(worker, "POST", "/mem0/v3/memories/", { body: { filters } });
  assert.equal(status, 400, JSON.stringify(body));
  assert.match(body.detail, pattern);
}

const anyUser = { user_id: "*" };

test("entity ids: bare value, in (or a bare list), ne with a wildcard guard, *", T, async () => {
  assert.deepEqual(await names({ user_id: "u1" }), ["Alpha", "Beta"]);
  assert.deepEqual(await names({ user_id: { in: ["u1", "u2"] } }), ["Alpha", "Beta", "Gamma"]);
  assert.deepEqual(await names({ user_id: ["u2"] }), ["Gamma"]);
  assert.deepEqual(await names({ AND: [anyUser, { user_id: { ne: "u1" } }] }), ["Gamma"]);
  assert.deepEqual(await names({ agent_id: "*" }), ["Beta", "Delta"]);
  assert.deepEqual(await names({ AND: [{ user_id: "u1" }, { run_id: "*" }] }), ["Beta"]);
  assert.deepEqual(await names({ user_id: "u1", agent_id: "a1" }), ["Beta"]);
  assert.deepEqual(await names({ app_id: "app1" }), ["Gamma"]);
  assert.deepEqual(await names({ app_id: "*" }), ["Gamma"]);
  assert.deepEqual(await names({ user_id: "nobody" }), []);
});

test("AND, OR, NOT (an object or a list), nested", T, async () => {
  assert.deepEqual(await names({ OR: [{ user_id: "u2" }, { agent_id: "a2" }] }), ["Gamma", "Delta"]);
  assert.deepEqual(await names({ AND: [anyUser, { NOT: { user_id: "u1" } }] }), ["Gamma"]);
  assert.deepEqual(await names({ AND: [{ agent_id: "*" }, { NOT: [{ run_id: "r2" }] }] }), ["Beta"]);
  const nested = { AND: [{ user_id: { in: ["u1", "u2"] } }, { OR: [{ metadata: { topic: "work" } }, { app_id: "app1" }] }] };
  assert.deepEqual(await names(nested), ["Beta", "Gamma"]);
  assert.deepEqual(await names({ OR: [{ user_id: "u1" }], NOT: { keywords: "coffee" } }), ["Alpha"]);
});

test("created_at / updated_at / timestamp: gt gte lt lte ne in and a bare value; any ISO form or Unix seconds", T, async () => {
  const when = (condition) => names({ AND: [anyUser, condition] });
  assert.deepEqual(await when({ created_at: { gte: at.Beta } }), ["Beta", "Gamma"]);
  assert.deepEqual(await when({ created_at: { gt: at.Alpha } }), ["Beta", "Gamma"]);
  assert.deepEqual(await when({ created_at: { lt: at.Beta } }), ["Alpha"]);
  assert.deepEqual(await when({ created_at: { lte: at.Alpha } }), ["Alpha"]);
  assert.deepEqual(await when({ created_at: { gte: at.Alpha, lt: at.Gamma } }), ["Alpha", "Beta"]);
  assert.deepEqual(await when({ created_at: { ne: at.Alpha } }), ["Beta", "Gamma"]);
  assert.deepEqual(await when({ created_at: { in: [at.Gamma] } }), ["Gamma"]);
  assert.deepEqual(await when({ created_at: at.Alpha }), ["Alpha"]);
  const shifted = new Date(Date.parse(at.Beta) + 2 * 3600_000).toISOString().replace(".", ",").split(",")[0];
  const withZone = `${shifted}.${at.Beta.slice(20, 23)}+02:00`;
  assert.deepEqual(await when({ created_at: { gte: withZone } }), ["Beta", "Gamma"]);
  assert.deepEqual(await when({ created_at: { gte: at.Alpha.slice(0, 10) } }), ["Alpha", "Beta", "Gamma"]);
  const seconds = Math.floor(Date.parse(at.Alpha) / 1000);
  assert.deepEqual(await when({ timestamp: { gte: seconds } }), ["Alpha", "Beta", "Gamma"]);
  assert.deepEqual(await when({ timestamp: { lt: seconds } }), []);
  assert.deepEqual(await when({ updated_at: { gte: at.Gamma } }), ["Gamma"]);
  await refused({ AND: [anyUser, { created_at: { gte: "yesterday" } }] }, /ISO 8601/);
});

test("keywords / text (contains is case-sensitive, icontains not; a bare value is icontains)", T, async () => {
  assert.deepEqual(await names({ AND: [anyUser, { keywords: { contains: "tea" } }] }), ["Alpha"]);
  assert.deepEqual(await names({ AND: [anyUser, { keywords: { icontains: "tea" } }] }), ["Alpha", "Gamma"]);
  assert.deepEqual(await names({ AND: [anyUser, { text: "TEA" }] }), ["Alpha", "Gamma"]);
  await refused({ AND: [anyUser, { keywords: { eq: "tea" } }] }, /operator `eq` is not allowed on `memory`/);
});

test("categories (metadata.categories): in, contains without case", T, async () => {
  assert.deepEqual(await names({ AND: [anyUser, { categories: { in: ["finance"] } }] }), ["Alpha"]);
  assert.deepEqual(await names({ AND: [anyUser, { categories: { contains: "health" } }] }), ["Alpha"]);
  assert.deepEqual(await names({ AND: [anyUser, { categories: ["nope"] }] }), []);
  assert.deepEqual(await names({ AND: [anyUser, { NOT: { categories: { in: ["finance"] } } }] }), ["Beta", "Gamma"]);
  const { body } = await mem0Call(worker, "GET", `/mem0/v1/memories/${id.Alpha}/`);
  assert.deepEqual(body.categories, ["finance", "Health"]);
  await refused({ AND: [anyUser, { categories: { ne: "finance" } }] }, /not allowed on `categories`/);
});

test("metadata: eq, ne, contains, icontains, and memwasm's in / gt; keys that are memory fields are refused", T, async () => {
  const meta = (condition) => names({ AND: [anyUser, { metadata: condition }] });
  assert.deepEqual(await meta({ topic: "food" }), ["Alpha", "Gamma"]);
  assert.deepEqual(await meta({ topic: "food", level: 5 }), ["Gamma"]);
  assert.deepEqual(await meta({ topic: { ne: "food" } }), ["Beta"]);
  assert.deepEqual(await meta({ tags: { contains: "x" } }), ["Alpha"]);
  assert.deepEqual(await meta({ topic: { icontains: "WO" } }), ["Beta"]);
  assert.deepEqual(await meta({ topic: { in: ["work"] } }), ["Beta"]);
  assert.deepEqual(await meta({ level: { gt: 4 } }), ["Beta", "Gamma"]);
  assert.deepEqual(await meta({ topic: "*" }), ["Alpha", "Beta", "Gamma"]);
  await refused({ AND: [anyUser, { metadata: { memory: "x" } }] }, /metadata key `memory`/);
  await refused({ AND: [anyUser, { metadata: "food" }] }, /metadata takes an object/);
});

test("memory_ids, and expiration_date with show_expired", T, async () => {
  assert.deepEqual(await names({ AND: [anyUser, { memory_ids: [id.Alpha, id.Gamma] }] }), ["Alpha", "Gamma"]);
  assert.deepEqual(await names({ AND: [{ agent_id: "*" }, { memory_ids: { in: [id.Delta] } }] }), ["Delta"]);
  const expiring = { AND: [{ user_id: "u3" }, { expiration_date: { lte: "2021-01-01" } }] };
  assert.deepEqual(await names(expiring), []);
  assert.deepEqual(await names(expiring, { show_expired: true }), ["Echo"]);
  assert.deepEqual(await names({ user_id: "u3", expiration_date: { gt: "2021-01-01" } }, { show_expired: true }), []);
});

test("the shorthand fields of get all: start_date, end_date, keywords, categories", T, async () => {
  const day = at.Alpha.slice(0, 10);
  assert.deepEqual(await names(anyUser, { start_date: day, end_date: day }), ["Alpha", "Beta", "Gamma"]);
  assert.deepEqual(await names(anyUser, { start_date: at.Beta }), ["Beta", "Gamma"]);
  assert.deepEqual(await names(anyUser, { end_date: at.Alpha }), ["Alpha"]);
  assert.deepEqual(await names(anyUser, { keywords: "tea" }), ["Alpha", "Gamma"]);
  assert.deepEqual(await names(anyUser, { categories: ["finance"] }), ["Alpha"]);
});

test("malformed filters are 400 with the platform's explanation", T, async () => {
  await refused({ user_id: "u1", bogus_key: "z" }, /Top-level key must be a logical operator or an allowed field/);
  await refused({ user_id: { gt: "a" } }, /operator `gt` is not allowed on `user_id`/);
  await refused({ user_id: { in: "u1" } }, /takes a list/);
  await refused({ metadata: { topic: "food" } }, /at least one of user_id, agent_id, app_id or run_id/);
  await refused({}, /empty filter object/);
  await refused({ AND: { user_id: "u1" } }, /AND takes a list/);
  await refused({ user_id: {} }, /empty operator object/);
  await refused({ AND: [{ user_id: "u1" }, "x"] }, /expected an object/);
  const missing = await mem0Call(worker, "POST", "/mem0/v3/memories/", { body: {} });
  assert.equal(missing.status, 400);
  const search = await mem0Call(worker, "POST", "/mem0/v3/memories/search/", { body: { query: "tea", filters: { bogus: 1 } } });
  assert.equal(search.status, 400);
});

test("search takes the same filters, top_k, threshold and show_expired; results carry scores", T, async () => {
  const search = async (body) => {
    const { status, body: answer } = await mem0Call(worker, "POST", "/mem0/v3/memories/search/", { body });
    assert.equal(status, 200, JSON.stringify(answer));
    return answer.results;
  };
  const found = await search({ query: "tea", filters: { OR: [{ user_id: "u1" }, { app_id: "app1" }] } });
  // The seeds are stored verbatim, so they are conversation turns, but each has a scope of its own: no turn
  // is read with another's words (Beta, u1 in run r1, is not in Alpha's conversation, u1 without a run).
  assert.deepEqual(found.map((r) => r.id).sort(), [id.Alpha, id.Gamma].sort());
  assert.ok(found.every((r) => typeof r.score === "number" && r.score >= 0.1 && r.score <= 1));
  assert.equal((await search({ query: "tea", filters: anyUser, top_k: 1 })).length, 1);
  assert.deepEqual(await search({ query: "tea", filters: anyUser, metadata: { topic: "work" } }), []);
  const all = await search({ query: "tea", filters: anyUser, threshold: 0 });
  assert.deepEqual(all.map((r) => r.id).sort(), [id.Alpha, id.Beta, id.Gamma].sort());
  assert.deepEqual(await search({ query: "expired", filters: { user_id: "u3" } }), []);
  assert.equal((await search({ query: "expired", filters: { user_id: "u3" }, show_expired: true }))[0].id, id.Echo);
  const some = await search({ query: "tea", filters: anyUser, fields: ["id", "memory"], keyword_search: true });
  assert.deepEqual(Object.keys(some[0]).sort(), ["id", "memory"]);
});

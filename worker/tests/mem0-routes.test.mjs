// The worker's mem0 platform API beyond the clients' happy paths: keys and tokens, error bodies and status
// codes, the v1 / v2 variants of the routes, events of failed adds, MEM0_PREFIX.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ACME, EXTRACT, INITECH, T, TOKENS, startServer } from "./helpers.mjs";
import { mem0Call, startMem0Worker, store } from "./mem0-helpers.mjs";

const USER_TOKEN = "tok-acme-user-555";
let server;
let worker;
before(async () => {
  server = await startServer();
  const tokens = { ...TOKENS, [USER_TOKEN]: { tenant: "acme", user: "u-1" } };
  worker = await startMem0Worker(server, { vars: { MEMORY_TOKENS: JSON.stringify(tokens) } });
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const call = (...args) => mem0Call(worker, ...args);

/** Asserts `{detail}` with `status`, the detail matching `pattern`. */
const CODES = { 400: "INVALID_INPUT", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 501: "NOT_IMPLEMENTED" };

/** mem0's error body `{detail}`, with the worker's stable `code` beside it. */
function assertDetail(response, status, pattern) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.deepEqual(Object.keys(response.body).sort(), ["code", "detail"]);
  if (CODES[status]) assert.equal(response.body.code, CODES[status]);
  assert.match(response.body.detail, pattern);
}

test("keys: Token or Bearer; a wrong or missing key is 401 {detail}; a user token 403", T, async () => {
  const ping = await call("GET", "/mem0/v1/ping/");
  assert.deepEqual(ping.body, { status: "ok", org_id: "acme", project_id: "acme", user_email: null });
  assert.equal((await call("GET", "/mem0/v1/ping/", { key: INITECH, scheme: "Bearer" })).body.org_id, "initech");
  const wrong = await call("GET", "/mem0/v1/ping/", { key: "nope" });
  assertDetail(wrong, 401, /Invalid API key/);
  assert.equal(wrong.headers.get("www-authenticate"), "Token");
  assertDetail(await call("GET", "/mem0/v1/ping/", { key: null }), 401, /Invalid API key/);
  assertDetail(await call("GET", "/mem0/v1/ping/", { key: USER_TOKEN }), 403, /tenant-wide token/);
  const elsewhere = await call("GET", "/v1/memories/?user_id=someone", { key: ACME });
  assert.equal(elsewhere.status, 200, "Token keys work on the other routes too");
  assert.equal((await call("GET", "/v1/memories/?user_id=someone", { scheme: "Bearer" })).status, 200);
});

test("platform-only routes answer 501, never 500", T, async () => {
  for (const [method, path] of [
    ["GET", "/mem0/api/v1/orgs/organizations/acme/projects/acme/"],
    ["PATCH", "/mem0/api/v1/orgs/organizations/acme/projects/acme/"],
    ["POST", "/mem0/api/v1/webhooks/projects/acme/"],
    ["DELETE", "/mem0/api/v1/webhooks/7/"],
    ["GET", "/mem0/v2/entities/user/alice/profile/"],
    ["POST", "/mem0/v2/profiles/jobs/"],
    ["POST", "/mem0/v1/summary/"],
    ["GET", "/mem0/v1/events/"],
    ["GET", "/mem0/"],
  ]) {
    assertDetail(await call(method, path, { body: method === "GET" ? undefined : {} }), 501, /does not implement/);
  }
});

test("bad input is 400 {detail}: unknown fields, no entity, no messages, malformed JSON", T, async () => {
  const add = (body) => call("POST", "/mem0/v3/memories/add/", { body });
  assertDetail(await add({ messages: "hi", user_id: "u", colour: "red" }), 400, /unknown body `colour`/);
  assertDetail(await add({ messages: "hi" }), 400, /At least one of user_id/);
  assertDetail(await add({ messages: "hi", app_id: "only-app" }), 400, /user_id, agent_id or run_id/);
  assertDetail(await add({ user_id: "u" }), 400, /messages is required/);
  assertDetail(await add({ messages: [], user_id: "u" }), 400, /cannot be empty/);
  assertDetail(await add({ messages: "hi", user_id: "u", expiration_date: "31/12/2099" }), 400, /YYYY-MM-DD/);
  const raw = await fetch(`${worker.origin}/mem0/v3/memories/add/`, {
    method: "POST",
    headers: { authorization: `Token ${ACME}`, "content-type": "application/json" },
    body: "{nope",
  });
  assert.equal(raw.status, 400);
  assert.match((await raw.json()).detail, /malformed JSON/);
  assertDetail(await call("GET", "/mem0/v1/ping/?page=2"), 400, /unknown query parameter `page`/);
  assertDetail(await call("POST", "/mem0/v3/memories/search/", { body: { filters: { user_id: "u" } } }), 400, /query is required/);
  const threshold = { query: "x", filters: { user_id: "u" }, threshold: 2 };
  assertDetail(await call("POST", "/mem0/v3/memories/search/", { body: threshold }), 400, /Invalid threshold/);
  assertDetail(await call("DELETE", "/mem0/v2/entities/planet/x/"), 400, /Invalid entity type/);
  assertDetail(await call("DELETE", "/mem0/v1/memories/"), 400, /At least one of user_id/);
  assertDetail(await call("PUT", "/mem0/v1/batch/", { body: { memories: [] } }), 400, /Between 1 and 1000/);
  const many = Array.from({ length: 1001 }, (_, i) => ({ memory_id: `m${i}` }));
  assertDetail(await call("DELETE", "/mem0/v1/batch/", { body: { memories: many } }), 400, /Between 1 and 1000/);
  const [id] = await store(worker, ["Feedback target"], { user_id: "fb" });
  assertDetail(await call("POST", "/mem0/v1/feedback/", { body: { memory_id: id, feedback: "MEH" } }), 400, /feedback must be one of/);
  assertDetail(await call("PUT", `/mem0/v1/memories/${id}/`, { body: {} }), 400, /At least one of text, metadata/);
});

test("unknown ids are 404 {detail}: memories, events, exports, feedback targets", T, async () => {
  const unknown = "00000000-0000-4000-8000-000000000000";
  assertDetail(await call("GET", `/mem0/v1/memories/${unknown}/`), 404, /Memory not found/);
  assertDetail(await call("GET", `/mem0/v1/memories/${unknown}/history/`), 404, /Memory not found/);
  assertDetail(await call("DELETE", `/mem0/v1/memories/${unknown}/`), 404, /Memory not found/);
  assertDetail(await call("GET", `/mem0/v1/event/${unknown}/`), 404, /Event not found/);
  assertDetail(await call("POST", "/mem0/v1/exports/get/", { body: { memory_export_id: unknown } }), 404, /No memory export/);
  assertDetail(await call("POST", "/mem0/v1/feedback/", { body: { memory_id: unknown } }), 404, /Memory not found/);
});

test("ids that are no memory id at all are 400 {detail}, as on mem0's platform (its clients raise ValidationError)", T, async () => {
  for (const bad of ["not-a-uuid", "12345", "00000000-0000-4000-8000-00000000000g"]) {
    assertDetail(await call("GET", `/mem0/v1/memories/${bad}/`), 400, /not a valid memory id/);
    assertDetail(await call("GET", `/mem0/v1/memories/${bad}/history/`), 400, /not a valid memory id/);
    assertDetail(await call("DELETE", `/mem0/v1/memories/${bad}/`), 400, /not a valid memory id/);
    assertDetail(await call("PUT", `/mem0/v1/memories/${bad}/`, { body: { text: "x" } }), 400, /not a valid memory id/);
    assertDetail(await call("POST", "/mem0/v1/feedback/", { body: { memory_id: bad } }), 400, /not a valid memory id/);
    assertDetail(await call("DELETE", "/mem0/v1/batch/", { body: { memories: [{ memory_id: bad }] } }), 400, /not a valid memory id/);
  }
});

test("the v1 and v2 variants: add and list with top-level ids, search by v2 and v1", T, async () => {
  const added = await call("POST", "/mem0/v1/memories/", {
    body: { messages: [{ role: "user", content: "Variant memory" }], user_id: "variant", infer: false },
  });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const listed = await call("GET", "/mem0/v1/memories/?user_id=variant&page_size=5");
  assert.deepEqual(listed.body.results.map((m) => m.memory), ["Variant memory"]);
  assert.equal((await call("POST", "/mem0/v2/memories/", { body: { filters: { user_id: "variant" } } })).body.count, 1);
  const v2 = await call("POST", "/mem0/v2/memories/search/", { body: { query: "variant", filters: { user_id: "variant" } } });
  assert.equal(v2.body.results[0].memory, "Variant memory");
  const v1 = await call("POST", "/mem0/v1/memories/search/", { body: { query: "variant", user_id: "variant" } });
  assert.equal(v1.body.results[0].memory, "Variant memory");
});

test("delete_all takes the Python client's str(dict) filters; app entities are deletable", T, async () => {
  await store(worker, ["Py repr one", "Py repr two"], { user_id: "py-repr" });
  const filters = encodeURIComponent("{'user_id': 'py-repr'}");
  const deleted = await call("DELETE", `/mem0/v1/memories/?filters=${filters}`);
  assert.deepEqual(deleted.body, { message: "Memories deleted successfully!", deleted: 2 });
  await store(worker, ["App one"], { user_id: "app-user", app_id: "the-app" });
  await store(worker, ["Not the app"], { user_id: "app-user" });
  const gone = await call("DELETE", "/mem0/v2/entities/app/the-app/");
  assert.equal(gone.body.deleted, 1);
  const left = await call("POST", "/mem0/v3/memories/", { body: { filters: { user_id: "app-user" } } });
  assert.deepEqual(left.body.results.map((m) => m.memory), ["Not the app"]);
  const byApp = await call("DELETE", "/mem0/v1/memories/?user_id=app-user&app_id=none");
  assert.equal(byApp.body.deleted, 0);
});

test("an unusable extraction reply is a FAILED add, with the reason in its event", T, async () => {
  const input = "unusable-extraction-reply";
  server.script({ kind: "chat", match: [EXTRACT, input], reply: "this is not JSON", times: 1 });
  const added = await call("POST", "/mem0/v3/memories/add/", { body: { messages: input, user_id: "failing" } });
  assert.equal(added.status, 200);
  assert.equal(added.body.status, "FAILED");
  assert.deepEqual(added.body.results, []);
  const event = await call("GET", `/mem0/v1/event/${added.body.event_id}/`);
  assert.equal(event.body.status, "FAILED");
  assert.equal(typeof event.body.error, "string");
  assert.deepEqual(event.body.payload, { messages: input, user_id: "failing" });

  const down = "model-is-down";
  server.script({ kind: "chat", match: [EXTRACT, down], status: 500, message: "upstream broke" });
  const failed = await call("POST", "/mem0/v3/memories/add/", { body: { messages: down, user_id: "failing" } });
  // A model that cannot be reached fails the add softly (graceful degradation): FAILED, with the cause in the event.
  assert.equal(failed.status, 200);
  assert.equal(failed.body.status, "FAILED", JSON.stringify(failed.body));
  const why = await call("GET", `/mem0/v1/event/${failed.body.event_id}/`);
  assert.match(why.body.error, /upstream broke|500/);
});

test("MEM0_PREFIX moves the routes", T, async () => {
  const moved = await startMem0Worker(server, { vars: { MEM0_PREFIX: "/platform/" }, prefix: "/platform" });
  try {
    assert.equal((await mem0Call(moved, "GET", "/platform/v1/ping/")).body.status, "ok");
    const old = await mem0Call(moved, "GET", "/mem0/v1/ping/");
    assert.equal(old.status, 404);
    assert.equal(old.body.error.code, "NOT_FOUND");
  } finally {
    await moved.dispose();
  }
});

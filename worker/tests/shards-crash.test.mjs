// With one object per user (`DO_SHARDS = "scope"`), workerd SIGKILLed between a user's object storing memories
// and the tenant's directory taking their ids loses none of them: after a restart, with no request for that user,
// every memory the user's object holds is exported and answers by id (GET, PUT, history, DELETE). The directory is
// made to refuse the reports (the test var `DO_TEST_DIRECTORY = "refuse"`) or to hold one unanswered ("hold"),
// so the kill lands after the store and before the report, every time.
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { ACME, startServer, tempDir } from "./helpers.mjs";
import { spawnWorker } from "./workerd-process.mjs";

const SHARDED = { STORAGE: "do", DO_SHARDS: "scope", DO_IDLE_SECONDS: "1" };
const FACTS = ["alice likes kites", "alice has a red bike", "alice reads maps", "alice naps at noon"];
const TIMEOUT = { timeout: 180_000 };

/** `method path` to the worker at `url` → `{status, body}`. */
async function call(url, method, path, body) {
  const headers = { authorization: `Bearer ${ACME}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, body: /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : text };
}

const addAlice = (url) => call(url, "POST", "/v1/memories/", { messages: FACTS.map((content) => ({ role: "user", content })), user_id: "alice", infer: false });

/** The ids of the memories in the tenant's export (every page). */
async function exportedIds(url) {
  const ids = [];
  let after = "";
  for (let page = 0; page < 10; page++) {
    const response = await fetch(`${url}/v1/export/${after}`, { headers: { authorization: `Bearer ${ACME}` } });
    assert.equal(response.status, 200);
    const lines = (await response.text()).split("\n").filter(Boolean).map((line) => JSON.parse(line));
    ids.push(...lines.filter((line) => line.kind === "memory").map((line) => line.id));
    const next = response.headers.get("x-memwasm-next");
    if (!next) return ids.sort();
    after = `?after=${next}`;
  }
  throw new Error("the export never ended");
}

/** Polls (at most `seconds`) until the export holds `count` memories; returns their ids. */
async function waitForExport(url, count, seconds = 30) {
  let ids = [];
  for (let tries = 0; tries < seconds * 4; tries++) {
    ids = await exportedIds(url);
    if (ids.length >= count) return ids;
    await sleep(250);
  }
  assert.fail(`after ${seconds} s the tenant's export holds ${ids.length} of alice's ${count} memories`);
}

/** After the restart: every memory is exported and found by id, and alice's own list agrees. */
async function everyMemoryFoundById(url) {
  const ids = await waitForExport(url, FACTS.length);
  for (const id of ids) {
    const got = await call(url, "GET", `/v1/memories/${id}/`);
    assert.equal(got.status, 200, `GET ${id}: ${got.text}`);
  }
  const listed = await call(url, "GET", "/v1/memories/?user_id=alice");
  assert.deepEqual(listed.body.results.map((item) => item.id).sort(), ids);
  const [first, second] = ids;
  assert.equal((await call(url, "PUT", `/v1/memories/${first}/`, { text: "alice likes box kites" })).status, 200);
  const history = await call(url, "GET", `/v1/memories/${first}/history/`);
  assert.deepEqual(history.body.map((record) => record.event), ["ADD", "UPDATE"]);
  assert.equal((await call(url, "DELETE", `/v1/memories/${second}/`)).status, 200);
  assert.equal((await call(url, "GET", `/v1/memories/${second}/`)).status, 404);
  assert.equal((await call(url, "GET", "/v1/memories/?user_id=alice")).body.results.length, FACTS.length - 1);
}

test("the directory refused the reports, then SIGKILL: after a restart every memory answers by id", TIMEOUT, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const first = await spawnWorker(t, server, { persist, vars: { ...SHARDED, DO_TEST_DIRECTORY: "refuse" } });
  const added = await addAlice(first.url);
  assert.equal(added.status, 200, added.text);
  const [id] = added.body.results.map((event) => event.id);
  assert.equal((await call(first.url, "GET", `/v1/memories/${id}/`)).status, 404, "the directory has not taken the ids");
  await first.kill();

  const second = await spawnWorker(t, server, { persist, vars: SHARDED });
  await everyMemoryFoundById(second.url);
});

test("SIGKILL while the directory holds the report: after a restart every memory answers by id", TIMEOUT, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const first = await spawnWorker(t, server, { persist, vars: { ...SHARDED, DO_TEST_DIRECTORY: "hold" } });
  const pending = addAlice(first.url).catch((error) => error);
  await first.waitFor("memwasm test hook: the directory holds a report");
  await first.kill();
  assert.ok((await pending) instanceof Error, "the add never answered");

  const second = await spawnWorker(t, server, { persist, vars: SHARDED });
  await everyMemoryFoundById(second.url);
});

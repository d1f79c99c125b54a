// The Cron Trigger's dreams in workerd: after the sweep, each tenant dreams over the scopes with journal turns
// no dream consolidated yet (at most DREAM_MAX_SCOPES per run); a scope whose dream fails does not stop the
// others, and stays pending for the next run.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { INITECH, T, WORKER_DIR, assertError } from "./helpers.mjs";
import { DREAM, chats, dreamsAbout, flushed, get, post, scriptDream, startTiers } from "./tiers-helpers.mjs";

/** Runs the scheduled handler once, as the cron would. */
async function runCron(worker) {
  const fetcher = await worker.mf.getWorker();
  const result = await fetcher.scheduled({ cron: "0 3 * * *", scheduledTime: new Date() });
  assert.equal(result.outcome, "ok", JSON.stringify(result));
}

const hasProfile = async (worker, user_id) => (await get(worker, "profile", { user_id })).status === 200;

test("wrangler.toml caps the cron's dreams with DREAM_MAX_SCOPES", T, () => {
  const toml = readFileSync(join(WORKER_DIR, "wrangler.toml"), "utf8");
  assert.match(toml, /^DREAM_MAX_SCOPES = "50"$/m);
});

test("the cron dreams for scopes with new journal turns only", T, async (t) => {
  const { server, worker } = await startTiers(t);
  await flushed(worker, { user_id: "alice" }, "I moved to Lisbon last week.");
  await flushed(worker, { user_id: "bob" }, "I live in Oslo.");
  scriptDream(server, "Oslo", { profile: "# Bob\n- Lives in Oslo" });
  assert.equal((await post(worker, "dream", { user_id: "bob" })).body.dreamed, true, "bob is consolidated already");
  assert.equal(chats(server, DREAM).length, 1);

  scriptDream(server, "Lisbon", { profile: "# Alice\n- Lives in Lisbon", facts: ["User lives in Lisbon"] });
  await runCron(worker);
  assert.equal(dreamsAbout(server, "Lisbon").length, 1, "alice's new journal was dreamt");
  assert.equal(dreamsAbout(server, "Oslo").length, 1, "bob had nothing new: no call");
  assert.equal((await get(worker, "profile", { user_id: "alice" })).body.markdown, "# Alice\n- Lives in Lisbon");
  const memories = await worker.call("GET", "/v1/memories/?user_id=alice");
  const stored = memories.body.results.map((item) => [item.memory, item.metadata.source]);
  assert.deepEqual(stored, [["User lives in Lisbon", "dream"]]);
  assert.equal((await get(worker, "journals", { user_id: "alice" })).body.results[0].consolidated, true);

  await runCron(worker);
  assert.equal(chats(server, DREAM).length, 2, "a second run finds nothing new");
});

test("the cron dreams in each tenant of MEMORY_TOKENS", T, async (t) => {
  const { server, worker } = await startTiers(t);
  await flushed(worker, { user_id: "alice" }, "I moved to Lisbon.");
  await flushed(worker, { user_id: "alice" }, "I moved to Quito.", INITECH);
  scriptDream(server, "Lisbon", { profile: "# Acme's Alice" });
  scriptDream(server, "Quito", { profile: "# Initech's Alice" });
  await runCron(worker);
  assert.equal((await get(worker, "profile", { user_id: "alice" })).body.markdown, "# Acme's Alice");
  assert.equal((await get(worker, "profile", { user_id: "alice" }, INITECH)).body.markdown, "# Initech's Alice");
});

test("a scope whose dream fails does not stop the others and is dreamt on the next run", T, async (t) => {
  const { server, worker } = await startTiers(t);
  await flushed(worker, { user_id: "alice" }, "I moved to Lisbon.");
  await flushed(worker, { user_id: "bob" }, "I live in Oslo.");
  server.script({ kind: "chat", match: [DREAM, "Lisbon"], status: 500, times: 1 });
  scriptDream(server, "Oslo", { profile: "# Bob" });
  await runCron(worker);
  assert.equal(dreamsAbout(server, "Lisbon").length, 1);
  assertError(await get(worker, "profile", { user_id: "alice" }), 404, "NOT_FOUND");
  assert.equal(await hasProfile(worker, "bob"), true);

  scriptDream(server, "Lisbon", { profile: "# Alice" });
  await runCron(worker);
  assert.equal(dreamsAbout(server, "Lisbon").length, 2);
  assert.equal(dreamsAbout(server, "Oslo").length, 1);
  assert.equal(await hasProfile(worker, "alice"), true);
});

test("DREAM_MAX_SCOPES caps the dreams of one run; the rest wait for the next", T, async (t) => {
  const { server, worker } = await startTiers(t, { DREAM_MAX_SCOPES: "1" });
  await flushed(worker, { user_id: "alice" }, "I moved to Lisbon.");
  await flushed(worker, { user_id: "bob" }, "I live in Oslo.");
  scriptDream(server, "Lisbon", { profile: "# Alice" });
  scriptDream(server, "Oslo", { profile: "# Bob" });
  await runCron(worker);
  assert.equal(chats(server, DREAM).length, 1);
  await runCron(worker);
  assert.equal(chats(server, DREAM).length, 2);
  assert.deepEqual([await hasProfile(worker, "alice"), await hasProfile(worker, "bob")], [true, true]);
});

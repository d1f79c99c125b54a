// Shared setup for the tier route tests (/v1/tiers/…, the memory tiers): flushing turns and waiting for the
// write-behind that runs after the 202, the tier prompts the scripted model server tells apart, and reads.
import assert from "node:assert/strict";
import { ACME, DECIDE, TOKENS, allKeys, startServer, startWorker } from "./helpers.mjs";

/** Start of the dream (consolidation) and running-summary system prompts. */
export const DREAM = "You consolidate an AI assistant's memory";
export const SUMMARY = "You keep the running summary";

/** A scripted server and the worker in workerd (with `vars`), both closed after test `t`. */
export async function startTiers(t, vars) {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, { vars });
  t.after(() => worker.dispose());
  return { server, worker };
}

/** The memory texts of a user (`GET /v1/memories/`), oldest first. */
export const memoriesOf = async (worker, user_id) =>
  (await worker.call("GET", `/v1/memories/?user_id=${user_id}`)).body.results.map((item) => item.memory);

/** The day (UTC) of `date`, as the journals name it. */
export const day = (date = new Date()) => date.toISOString().slice(0, 10);

/** A query string of `params`. */
export const qs = (params) => new URLSearchParams(params).toString();

/** The chat requests the server received whose system prompt starts with `prompt`. */
export const chats = (server, prompt) => server.requests("chat").filter((entry) => entry.system.startsWith(prompt));

/** The background-queue side records `tenant` holds in KV (one per scope with unwritten turns). */
export const queued = async (worker, tenant = "acme") =>
  (await allKeys(await worker.kv(), `t/${tenant}/side/background-queue/`)).length;

/** Resolves once `check()` is truthy (polled: it waits for work running after a response, not for time). */
export async function until(check, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** POSTs turns to /v1/tiers/flush, asserts the 202, and returns its body. */
export async function flush(worker, scope, messages, token = ACME) {
  const response = await worker.call("POST", "/v1/tiers/flush", { token, body: { messages, ...scope } });
  assert.equal(response.status, 202, JSON.stringify(response.body));
  return response.body;
}

/** Flushes turns as `token` (acme's or initech's) and waits until their write-behind has run (the
 * tenant's queue is empty again). */
export async function flushed(worker, scope, messages, token = ACME) {
  const body = await flush(worker, scope, messages, token);
  await until(async () => (await queued(worker, TOKENS[token])) === 0, "the write-behind of the flush");
  return body;
}

/** GET a tier route with query `params` → `{status, body}`. */
export const get = (worker, route, params, token = ACME) =>
  worker.call("GET", `/v1/tiers/${route}?${qs(params)}`, { token });

/** POST a tier route → `{status, body}`. */
export const post = (worker, route, body, token = ACME) => worker.call("POST", `/v1/tiers/${route}`, { token, body });

/** Scripts one dream reply for journals containing `word` (and the decision that ADDs its facts). */
export function scriptDream(server, word, { profile, facts = [], reason = "scripted dream" }) {
  const reply = { profile, facts, reason };
  server.script({ kind: "chat", match: [DREAM, word], has: "response_format", reply, times: 1 });
  if (facts.length > 0) {
    const memory = facts.map((text) => ({ text, event: "ADD" }));
    server.script({ kind: "chat", match: [DECIDE, ...facts], reply: { memory }, times: 1 });
  }
}

/** The dream calls whose journals contain `word`. */
export const dreamsAbout = (server, word) => chats(server, DREAM).filter((entry) => entry.user.includes(word));

// Shared setup for the conversation API tests (/api/v1/memories…, conversations-*.test.mjs): the two
// conversation prompts' openings and scripted replies for them, the API's envelopes, messages of a
// group chat, and GET requests with a JSON body (which fetch() cannot send) over real HTTP.
import assert from "node:assert/strict";
import http from "node:http";
import { DECIDE, startWorker } from "./helpers.mjs";
import { MEMORY_TOKENS } from "./memory-helpers.mjs";

/** Start of the boundary-judgement system prompt (src/core/conversations/prompts.rs). */
export const BOUNDARY = "You are a conversation segmentation expert.";
/** Start of the episode-extraction system prompt. */
export const EPISODE = "You are a memory extraction expert.";
/** Start of agentic retrieval's judgement prompt (src/core/retrieval/prompts.rs). */
export const JUDGE = "You are a memory retrieval expert. A user's query was run";
export const BASE = "/api/v1/memories";

/** Every boundary call answers `boundary: false` (the hard rules, e.g. the 30-minute gap, still close). */
export const noBoundary = () => ({ kind: "chat", match: [BOUNDARY], reply: { boundary: false, reason: "it continues" } });

/** The extraction of an episode whose prompt holds every string of `match` answers with these memories. */
export function episode(match, { summary = "They talked.", title, eventLog = [], foresight = [], profiles = [] } = {}) {
  const reply = { summary, event_log: eventLog, foresight, profiles };
  if (title) reply.title = title;
  return { kind: "chat", match: [EPISODE, ...[].concat(match)], reply, times: 1 };
}

/** The update decision that ADDs every event_log fact of `facts`. */
export const addsAll = (facts) => ({
  kind: "chat",
  match: [DECIDE, ...facts],
  reply: { memory: facts.map((text) => ({ text, event: "ADD" })) },
  times: 1,
});

/** `profiles` entry of an extraction reply. */
export const profileOf = (userId, attributes) => ({
  user_id: userId,
  attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })),
});

/** The service with the memory API's user tokens too (so the 403 for user tokens can be tried). */
export const startConversationWorker = (server, options = {}) =>
  startWorker(server, { ...options, vars: { MEMORY_TOKENS: JSON.stringify(MEMORY_TOKENS), ...options.vars } });

/** A message of group `group` (`null`: no group) at `time` ("2025-03-03T09:00:00Z"). */
export const message = (id, time, sender, content, group = "rocket", extra = {}) => ({
  message_id: id,
  create_time: time,
  sender,
  content,
  ...(group === null ? {} : { group_id: group, group_name: "Rocket team" }),
  ...extra,
});

/** Asserts `{status: "ok", message, result}` with HTTP 200; returns `result`. */
export function okResult(response) {
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal(response.body.status, "ok", JSON.stringify(response.body));
  assert.equal(typeof response.body.message, "string");
  assert.ok("result" in response.body);
  return response.body.result;
}

/** Asserts the conversation API's error envelope `{status: "failed", code, message, timestamp, path}`. */
export function assertFailed(response, status, code, path) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  const body = response.body;
  assert.equal(body.status, "failed", JSON.stringify(body));
  assert.equal(body.code, code, JSON.stringify(body));
  assert.ok(typeof body.message === "string" && body.message.length > 0, JSON.stringify(body));
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)), `timestamp ${body.timestamp}`);
  if (path) assert.equal(body.path, path);
  return body;
}

/** `GET path` with a JSON body, over a real socket to the Miniflare instance. */
export async function getWithBody(worker, path, body, token) {
  const url = new URL(path, await worker.mf.ready);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(text) };
    if (token) headers.authorization = `Bearer ${token}`;
    const request = http.request(url, { method: "GET", headers }, (response) => {
      let data = "";
      response.on("data", (chunk) => (data += chunk));
      response.on("end", () => resolve({ status: response.statusCode, body: JSON.parse(data) }));
    });
    request.on("error", reject);
    request.end(text);
  });
}

/** A query string of `params` (arrays as JSON). */
export const query = (params) =>
  "?" + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === "object" ? JSON.stringify(v) : String(v)]));

/** The memories of a search result, flattened: `[[type, content], …]`. */
export const hits = (result) =>
  result.memories.flatMap((group) => Object.entries(group).flatMap(([type, items]) => items.map((m) => [type, m.content])));

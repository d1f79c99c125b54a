// Shared setup for the message-by-message memory suites (conversations-*.test.mjs): the two prompts' openings,
// scripted rules for them, a clocked memory whose clock follows the messages, and an in-memory KV namespace.
import assert from "node:assert/strict";
import { clockedMemory } from "./helpers.mjs";

/** Start of the boundary-judgement system prompt. */
export const BOUNDARY = "You are a conversation segmentation expert.";
/** Start of the episode-extraction system prompt. */
export const EPISODE = "You are a memory extraction expert.";

/** The boundary call for a new message containing every string of `match` answers `boundary: true`. */
export const boundaryAt = (match, reason = "the topic changes", extra = {}) => ({
  kind: "chat",
  match: [BOUNDARY, "New message:", ...[].concat(match)],
  reply: { boundary: true, reason },
  ...extra,
});

/** Every other boundary call answers `boundary: false` (script it last: the first matching rule wins). */
export const noBoundary = (extra = {}) => ({ kind: "chat", match: [BOUNDARY], reply: { boundary: false, reason: "it continues" }, ...extra });

/** The extraction call of an episode whose prompt contains every string of `match` answers `reply`. */
export function episode(match, { summary = "They talked.", title, eventLog = [], foresight = [], profiles = [] } = {}, extra = {}) {
  const reply = { summary, event_log: eventLog, foresight, profiles };
  if (title) reply.title = title;
  return { kind: "chat", match: [EPISODE, ...[].concat(match)], reply, ...extra };
}

/** `profiles` entry of an extraction reply. */
export const profileOf = (userId, attributes) => ({
  user_id: userId,
  attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })),
});

/** A memory with an injected clock; `send(message)` moves the clock to one second after the message's
 * `createTime` and adds it. */
export function conversationMemory(server, over = {}) {
  const { mem, clock } = clockedMemory(server, over);
  const send = (message) => {
    clock.t = Date.parse(message.createTime) + 1000;
    return mem.addMessage(message);
  };
  return { mem, clock, send };
}

/** Asserts the AddMessageResult shape. */
export function assertMessageResult(res) {
  assert.ok(["accumulated", "extracted"].includes(res.status), JSON.stringify(res));
  for (const key of ["memories", "episodes", "pendingMessages", "warnings"]) assert.ok(Array.isArray(res[key]), key);
  assert.equal(typeof res.count, "number");
  assert.equal(typeof res.duplicate, "boolean");
  assert.equal(typeof res.groupId, "string");
  return res;
}

/** Message ids of a result's pending messages. */
export const pendingIds = (res) => res.pendingMessages.map((m) => m.messageId);

/** A Workers KV namespace in RAM (get, bulk get, put, delete, list by prefix): what `env.MEMORY_KV` offers. */
export function memoryKv() {
  const data = new Map();
  return {
    data,
    async get(key) {
      if (Array.isArray(key)) return new Map(key.map((k) => [k, data.get(k) ?? null]));
      return data.get(key) ?? null;
    },
    async put(key, value) {
      data.set(key, String(value));
    },
    async delete(key) {
      data.delete(key);
    },
    async list({ prefix = "" } = {}) {
      const keys = [...data.keys()].filter((k) => k.startsWith(prefix)).sort().map((name) => ({ name }));
      return { keys, list_complete: true };
    },
  };
}

/** Sends `message` (group `g1` from alice unless it says otherwise) as a one-message episode whose extraction
 * replies `reply` (default summary `Chat about <content>`), flushes the group, and resolves with the episode's
 * sessionId. `ctx` is what `conversationMemory` returned. */
export async function oneMessageEpisode(server, ctx, message, reply = {}) {
  const full = { groupId: "g1", sender: "alice", ...message };
  server.script(episode(full.content, { summary: `Chat about ${full.content}`, ...reply }, { times: 1 }));
  const sent = await ctx.send(full);
  assert.equal(sent.status, "accumulated", JSON.stringify(sent));
  const flushed = await ctx.mem.flushGroup(full.groupId);
  assert.equal(flushed.episodes.length, 1, JSON.stringify(flushed));
  return flushed.episodes[0].sessionId;
}

// Shared setup for the memory API tests (/api/v1/memory/…, the agent key/value entries): tokens of both formats — the old
// tenant string (a tenant-wide admin with no user, whose entries are system entries) and the object
// {tenant, user, admin} — and a caller per token.
import assert from "node:assert/strict";
import { ACME, INITECH, TOKENS, startWorker } from "./helpers.mjs";

/** acme's users u-1 and u-2, acme's admin "boss", and initech's own user u-1. */
export const USER1 = "tok-acme-user1-0123456789";
export const USER2 = "tok-acme-user2-0123456789";
export const BOSS = "tok-acme-boss-0123456789";
export const OTHER = "tok-initech-user1-0123456789";
export { ACME, INITECH };

export const MEMORY_TOKENS = {
  ...TOKENS,
  [USER1]: { tenant: "acme", user: "u-1" },
  [USER2]: { tenant: "acme", user: "u-2", admin: false },
  [BOSS]: { tenant: "acme", user: "boss", admin: true },
  [OTHER]: { tenant: "initech", user: "u-1" },
};

/** The service with the tokens above (and `vars` over them). */
export function startMemoryWorker(server, vars = {}) {
  return startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify(MEMORY_TOKENS), ...vars } });
}

/** `(method, path, options) => {status, body}` as the holder of `token`. */
export const as = (worker, token) => (method, path, options = {}) => worker.call(method, path, { ...options, token });

/** The path of an agent route: `route("agent-1", "/store")`. */
export const route = (agent, rest = "") => `/api/v1/memory/${encodeURIComponent(agent)}${rest}`;

/** Stores `value` under `key` for `agent` and asserts it worked. */
export async function store(call, agent, key, value, extra = {}) {
  const response = await call("POST", route(agent, "/store"), { body: { key, value, ...extra } });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal(response.body.status, "ok");
  return response;
}

/** The keys of a `list` (every page's entries in order). */
export async function listedKeys(call, agent) {
  const response = await call("GET", route(agent, "/list?limit=1000"));
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.entries.map((entry) => entry.key);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

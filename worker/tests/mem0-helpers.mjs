// Shared setup for the mem0 platform API tests: the built worker in workerd on a real loopback port (the
// official clients speak HTTP to it), raw calls with `Authorization: Token`, and the Python client's venv.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ACME, startWorker } from "./helpers.mjs";

/** The worker with its mem0 routes reachable over HTTP: `origin`, `host` (what a client's `host` is). */
export async function startMem0Worker(server, options = {}) {
  const worker = await startWorker(server, options);
  const origin = String(await worker.mf.ready).replace(/\/$/, "");
  return { ...worker, origin, host: `${origin}${options.prefix ?? "/mem0"}` };
}

/** `fetch` against the worker with mem0's auth header → `{status, body}` (the body parsed when JSON). */
export async function mem0Call(worker, method, path, { key = ACME, body, scheme = "Token" } = {}) {
  const headers = {};
  if (key) headers.authorization = `${scheme} ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${worker.origin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers };
}

/** The Python interpreter of the venv holding PyPI `mem0ai` (scripts/setup.d/55-mem0-clients.sh). */
export function mem0Python() {
  const python = process.env.MEM0_PYTHON ?? join(homedir(), ".cache/memwasm/mem0-py/bin/python");
  if (!existsSync(python)) {
    throw new Error(`${python} is missing: run \`bash scripts/setup.sh mem0-clients\` to install PyPI mem0ai`);
  }
  return python;
}

/** Stores `texts` verbatim (infer: false, no LLM) for `entities` through the raw API; returns their ids. */
export async function store(worker, texts, entities, extra = {}) {
  const messages = texts.map((content) => ({ role: "user", content }));
  const { status, body } = await mem0Call(worker, "POST", "/mem0/v3/memories/add/", {
    body: { messages, infer: false, ...entities, ...extra },
  });
  if (status !== 200) throw new Error(`store: ${status} ${JSON.stringify(body)}`);
  return body.results.map((event) => event.id);
}

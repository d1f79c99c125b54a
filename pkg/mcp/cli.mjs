// `memwasm mcp --db PATH [options]`: the MCP server over stdio on a SQLite file. Logs go to stderr;
// stdout carries only the protocol.

import { parseArgs } from "node:util";
import { Memory } from "../index.node.mjs";
import { createServer, loadSdk } from "./server.mjs";
import { LineTransport } from "./stdio.mjs";
import { answerModern, isModernRequest } from "./modern.mjs";

export const USAGE = `usage: memwasm mcp --db PATH [options]
  --db PATH              the SQLite file holding the memories (made when missing)
  --user-id ID           the user of calls that name no user_id, agent_id or run_id (default "default")
  --weights PATH         on-device embedder (all-MiniLM-L6-v2 model.safetensors), with --tokenizer; no LLM
  --tokenizer PATH       its tokenizer.json
  --no-llm               no LLM: add_memory stores the text as it is
  --no-graph             no graph memory (one LLM call less per add_memory; no graph tools)
  --llm-model NAME       the OpenAI-compatible chat model (default gpt-4o-mini)
  --embedding-model NAME the OpenAI-compatible embedding model (default text-embedding-3-small)
  --dimensions N         the embedding model's vector length
  --sync-url URL         keep the memories in sync through this memwasm Worker (docs/sync.md), with the
                         user's token in MEMWASM_SYNC_TOKEN and the passphrase in MEMWASM_SYNC_PASSPHRASE
  --sync-interval-ms N   a sync round at least this often (default 30000), besides one after each write
Models come from OPENAI_API_KEY and OPENAI_BASE_URL.`;

const OPTIONS = {
  db: { type: "string" }, "user-id": { type: "string", default: "default" },
  weights: { type: "string" }, tokenizer: { type: "string" },
  "no-llm": { type: "boolean", default: false }, "no-graph": { type: "boolean", default: false },
  "llm-model": { type: "string" }, "embedding-model": { type: "string" }, dimensions: { type: "string" },
  "sync-url": { type: "string" }, "sync-interval-ms": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
};

/** The Memory config and server settings for `argv`, or throws an error with a message for the user. */
export function settingsOf(argv) {
  const { values: o } = parseArgs({ args: argv, options: OPTIONS, strict: true });
  if (o.help) return { help: true };
  if (!o.db) throw new Error("--db PATH is required");
  if (!!o.weights !== !!o.tokenizer) throw new Error("--weights and --tokenizer go together");
  const dimensions = o.dimensions === undefined ? undefined : Number(o.dimensions);
  if (dimensions !== undefined && !(Number.isSafeInteger(dimensions) && dimensions > 0)) {
    throw new Error("--dimensions must be a positive integer");
  }
  const llm = !o["no-llm"] && !o.weights;
  const graph = !o["no-graph"];
  const config = { storage: { provider: "sqlite", config: { path: o.db } }, graph: { enabled: graph } };
  if (o.weights) config.embedder = { provider: "local", config: { weights: o.weights, tokenizer: o.tokenizer } };
  else if (o["embedding-model"] || dimensions) {
    config.embedder = { provider: "openai", config: { ...(o["embedding-model"] ? { model: o["embedding-model"] } : {}), ...(dimensions ? { dimensions } : {}) } };
  }
  if (!llm) config.llm = { provider: "none" };
  else if (o["llm-model"]) config.llm = { provider: "openai", config: { model: o["llm-model"] } };
  return { config, userId: o["user-id"], llm, graph, sync: syncOf(o) };
}

/** `--sync-url`'s settings (the secrets from the environment), or `undefined` without it. */
function syncOf(o) {
  if (o["sync-url"] === undefined) {
    if (o["sync-interval-ms"] !== undefined) throw new Error("--sync-interval-ms goes with --sync-url");
    return undefined;
  }
  const intervalMs = o["sync-interval-ms"] === undefined ? undefined : Number(o["sync-interval-ms"]);
  if (intervalMs !== undefined && !(Number.isSafeInteger(intervalMs) && intervalMs >= 100)) {
    throw new Error("--sync-interval-ms must be a whole number of 100 or more");
  }
  return { url: o["sync-url"], ...(intervalMs ? { intervalMs } : {}) };
}

/** `settings.sync` with the token and passphrase of `env`; throws naming the variable that is missing. */
export function syncOptions(settings, env) {
  if (!settings.sync) return undefined;
  if (!env.MEMWASM_SYNC_TOKEN) throw Object.assign(new Error("--sync-url needs the user's token in MEMWASM_SYNC_TOKEN"), { code: "INVALID_CONFIG" });
  const passphrase = env.MEMWASM_SYNC_PASSPHRASE || undefined;
  return { ...settings.sync, token: env.MEMWASM_SYNC_TOKEN, ...(passphrase ? { passphrase } : {}) };
}

/** Throws `INVALID_CONFIG` naming the variables and flags to set when the OpenAI-compatible models this
 * command line needs have neither a key nor a base URL (Memory's own message names config fields). */
export function checkModelKey({ config }, env) {
  if (config.embedder?.provider === "local" || env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return;
  throw Object.assign(new Error("no model key: set OPENAI_API_KEY in the server's environment (a desktop " +
    "client's config: \"env\": {\"OPENAI_API_KEY\": \"sk-…\"}), or OPENAI_BASE_URL for an OpenAI-compatible server " +
    "that needs no key; with no key at all, --weights PATH --tokenizer PATH embed on the device (no LLM)"), { code: "INVALID_CONFIG" });
}

/** Runs the server until stdin ends or a signal comes; closes the memory (and its file) on the way out. */
export async function main(argv) {
  let settings;
  try {
    settings = settingsOf(argv);
  } catch (error) {
    process.stderr.write(`memwasm mcp: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (settings.help) return process.stdout.write(`${USAGE}\n`), 0;
  let sdk, memory, live;
  try {
    sdk = await loadSdk();
    checkModelKey(settings, process.env);
    const sync = syncOptions(settings, process.env);
    memory = await Memory.open(settings.config);
    const report = (error) => process.stderr.write(`memwasm mcp: sync: ${error.code ?? ""} ${error.message}\n`);
    if (sync) live = memory.syncLive({ ...sync, onError: report });
  } catch (error) {
    process.stderr.write(`memwasm mcp: ${error.code ? `${error.code}: ` : ""}${error.message}\n`);
    return 1;
  }
  const ctx = { memory, userId: settings.userId, llm: settings.llm, graph: settings.graph };
  const server = createServer(sdk, ctx);
  let closing = false;
  const shutdown = async (why) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`memwasm mcp: ${why}, closing ${settings.config.storage.config.path}\n`);
    try {
      await live?.stop();
      await server.close();
    } finally {
      memory.close();
      process.exit(0);
    }
  };
  process.stdin.on("end", () => shutdown("stdin ended"));
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => shutdown(signal));
  server.onclose = () => shutdown("connection closed");
  const intercept = (message) => (isModernRequest(message) ? answerModern(message, ctx) : null);
  await server.connect(new LineTransport(sdk.types.JSONRPCMessageSchema, { intercept }));
  process.stderr.write(`memwasm mcp: serving ${settings.config.storage.config.path} over stdio (user ` +
    `${JSON.stringify(settings.userId)}, ${settings.llm ? "LLM" : "no LLM"}, graph ${settings.graph ? "on" : "off"}` +
    `${settings.sync ? `, in sync through ${settings.sync.url}` : ""})\n`);
  return undefined; // keeps running
}

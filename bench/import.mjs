// The import figure: a generated ChatGPT export of 1,000 conversations (lib/chatgpt-archive.mjs, seed 1) imported by
// `memory.importConversations()` into a SQLite memory (no fact budget: `limits.maxFacts: null`), against the scripted
// OpenAI-compatible server in this process with no delay. Reports the dry run's estimate, the model calls made (per conversation), and the time beyond the model
// calls per 1,000 messages: the import's wall time less the time some model request was in flight (each `fetch` to
// the server, timed until its body is read; overlapping requests count once). Then the same archive again: what a
// re-import adds and costs. `--json` prints one JSON object; `--conversations N` for another size.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chatgptArchive, keptMessages } from "./lib/chatgpt-archive.mjs";
import { importModelRules } from "./lib/import-models.mjs";

const ms = (x) => (x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`);

/** A global fetch that times the requests to `origin`: `clock.busyMs` grows while at least one is in flight. */
function timeModelCalls(origin, clock) {
  const inner = globalThis.fetch;
  let inFlight = 0;
  let since = 0;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input.url ?? String(input);
    if (!url.startsWith(origin)) return inner(input, init);
    if (inFlight++ === 0) since = performance.now();
    try {
      const response = await inner(input, init);
      const body = await response.arrayBuffer();
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } finally {
      if (--inFlight === 0) clock.busyMs += performance.now() - since;
    }
  };
}

/** One timed import of `archive` into `memory`: the report, the wall time, the model time and the requests made. */
async function timedImport(memory, archive, server, clock, options) {
  const before = { chat: server.count("chat"), embedding: server.count("embedding") };
  clock.busyMs = 0;
  const started = performance.now();
  const report = await memory.importConversations(archive, options);
  const wallMs = performance.now() - started;
  return { report, wallMs, modelMs: clock.busyMs, chat: server.count("chat") - before.chat, embedding: server.count("embedding") - before.embedding };
}

/** The rows printed by run.mjs and by `node import.mjs`. */
export function importTable(r) {
  const first = r.first;
  return [
    `Import of a generated ChatGPT export (bench/import.mjs): ${r.conversations.toLocaleString("en")} conversations, ` +
      `${r.messages.toLocaleString("en")} messages kept (${r.chunks.toLocaleString("en")} chunks), into SQLite, scripted models in-process with no delay.`,
    "",
    "| run | model calls | per conversation | embedding requests | wall time | of which model requests in flight | beyond the model calls | per 1,000 messages | memories added |",
    "|---|---|---|---|---|---|---|---|---|",
    `| dry run (estimate) | ${r.dryRun.modelCalls} | ${(r.dryRun.modelCalls / r.conversations).toFixed(2)} | – | ${ms(r.dryRun.wallMs)} | – | – | – | 0 |`,
    ...[["import", first], ["the same archive again", r.again]].map(([name, x]) =>
      `| ${name} | ${x.chat} | ${(x.chat / r.conversations).toFixed(2)} | ${x.embedding} | ${ms(x.wallMs)} | ${ms(x.modelMs)} | ` +
      `${ms(x.wallMs - x.modelMs)} | ${ms(((x.wallMs - x.modelMs) * 1000) / r.messages)} | ${x.added} |`),
    "",
    ...importTargets(r).map(([what, measured, ok]) => `- ${what}: ${measured}: ${ok ? "met" : "NOT met"}`),
  ].join("\n");
}

/** `[what, measured, met]` of each target. */
export function importTargets(r) {
  return [
    ["every fact the import reports is in the memory", `${r.first.report.facts} facts, ${r.first.added} memories`, r.first.added === r.first.report.facts],
    ["a re-import of the same archive adds 0 memories and makes 0 model calls",
      `${r.again.added} added, ${r.again.chat} model calls, ${r.again.report.replayed} chunks replayed`, r.again.added === 0 && r.again.chat === 0],
    ["the dry run's estimate is at least the calls made", `${r.dryRun.modelCalls} estimated, ${r.first.chat} made`, r.dryRun.modelCalls >= r.first.chat],
  ];
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const n = Number(option("--conversations", "1000"));
  const say = (text) => process.stderr.write(`[bench import] ${text}\n`);
  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageAtStart: loadavg()[0] };
  const { Memory } = await import("memwasm");
  const { startScriptedServer } = await import("../tests/support/scripted-server.mjs");
  const server = await startScriptedServer({ port: 0 });
  const clock = { busyMs: 0 };
  timeModelCalls(server.url, clock);
  server.script(importModelRules());
  const scratch = mkdtempSync(join(tmpdir(), "memwasm-bench-import-"));
  const archive = JSON.stringify(chatgptArchive({ conversations: n, seed: 1 }));
  const memory = await Memory.open({
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench" } },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "bench", model: "bench", dimensions: 64 } },
    storage: { provider: "sqlite", config: { path: join(scratch, "import.db") } },
    // Every fact kept: the default budget (500 facts a scope) would trim an archive this size as it goes.
    limits: { maxFacts: null },
  });
  try {
    const count = async () => (await memory.getAll({ userId: "bench", limit: 1 })).totalCount;
    let started = performance.now();
    const dry = await memory.importConversations(archive, { userId: "bench", dryRun: true });
    const dryRun = { ...dry, wallMs: performance.now() - started };
    say(`dry run: ${dry.conversations} conversations, ${dry.messages} messages, ${dry.chunks} chunks, ${dry.modelCalls} model calls estimated`);
    const first = await timedImport(memory, archive, server, clock, { userId: "bench" });
    first.added = await count();
    say(`import: ${first.chat} model calls, ${ms(first.wallMs)} (${ms(first.modelMs)} in model requests), ${first.added} memories`);
    const again = await timedImport(memory, archive, server, clock, { userId: "bench" });
    again.added = (await count()) - first.added;
    say(`again: ${again.chat} model calls, ${ms(again.wallMs)}, ${again.added} added`);
    const messages = keptMessages(JSON.parse(archive));
    if (dry.messages !== messages) say(`note: the importer kept ${dry.messages} messages, the generator counts ${messages}`);
    machine.loadAverageAtEnd = loadavg()[0];
    const result = { date: new Date().toISOString(), machine, conversations: dry.conversations, messages: dry.messages, chunks: dry.chunks,
      dryRun, first, again };
    result.targets = importTargets(result).map(([what, measured, met]) => ({ what, measured, met }));
    if (args.includes("--json")) process.stdout.write(JSON.stringify(result) + "\n");
    else console.log(`Machine: ${machine.cpus} × ${machine.cpu}, Node ${machine.node}.\n\n${importTable(result)}`);
  } finally {
    memory.close();
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

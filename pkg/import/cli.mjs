// `memwasm import FILE --db PATH --user-id ID [options]`: an export (ChatGPT's or Claude's conversations.json
// or their zip, mem0's, memwasm's) into a SQLite file, with the models `memwasm mcp` takes (its option
// parsing, mcp/cli.mjs). Progress on stderr, the report as JSON on stdout. Exit codes: 0 done (or dry run),
// 1 the import failed (IMPORT_FORMAT, a model error…: its code on stderr), 2 bad arguments, 130 stopped by
// Ctrl-C (what was committed stays; the same command resumes).
import { readFileSync } from "node:fs";
import { USAGE as MCP_USAGE, checkModelKey, settingsOf } from "../mcp/cli.mjs";
import { importConversations } from "./importer.mjs";
import { settingsOf as importSettings } from "./settings.mjs";
import { FORMATS } from "./detect.mjs";
import { readSource } from "./source.mjs";

export const USAGE = `usage: memwasm import FILE --db PATH [--user-id ID] [options]
  FILE                   conversations.json of a ChatGPT or Claude data export (or the export's .zip), a mem0
                         export (get_all's JSON) or a memwasm export (exportMemories())
  --format NAME          auto (default), ${FORMATS.join(", ")}
  --dry-run              check the file and count conversations, messages, chunks and model calls; adds nothing
  --chunk-messages N     messages per add() (default 20)
  --no-infer             store each message as it is (no LLM call)
and the model and storage options of memwasm mcp (--sync-* aside):
${MCP_USAGE.split("\n").slice(1).filter((line) => !/--sync|^\s+user's token|^\s+--sync-interval/.test(line)).join("\n")}`;

const OWN = { "--format": "value", "--chunk-messages": "value", "--dry-run": "flag", "--no-infer": "flag" };

/** `{ file, format, dryRun, chunkMessages, infer, rest }`: this command's own arguments, the others for mcp's parser. */
function split(argv) {
  const [file, ...args] = argv;
  const own = {};
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].startsWith("--") ? args[i].split(/=(.*)/s) : [args[i]];
    if (OWN[name] === "flag") own[name] = true;
    else if (OWN[name] === "value") {
      const value = inline ?? args[++i];
      if (value === undefined) throw new Error(`${name} needs a value`);
      own[name] = value;
    } else rest.push(args[i]);
  }
  const chunkMessages = own["--chunk-messages"] === undefined ? undefined : Number(own["--chunk-messages"]);
  if (chunkMessages !== undefined && !(Number.isSafeInteger(chunkMessages) && chunkMessages >= 1 && chunkMessages <= 1000)) {
    throw new Error("--chunk-messages must be a whole number from 1 to 1000");
  }
  const format = own["--format"] ?? "auto";
  if (format !== "auto" && !FORMATS.includes(format)) throw new Error(`--format must be auto or one of ${FORMATS.join(", ")}`);
  if (file === undefined || file.startsWith("-")) throw new Error("FILE comes first: memwasm import FILE --db PATH …");
  return { file, format, dryRun: own["--dry-run"] === true, infer: own["--no-infer"] ? false : undefined, chunkMessages, rest };
}

/** Progress lines on stderr, at most one a second (and the last). */
function progressPrinter(stderr) {
  let last = 0;
  return (p) => {
    const now = Date.now();
    const end = p.chunks.done === p.chunks.total;
    if (!end && now - last < 1000) return;
    last = now;
    stderr.write(`memwasm import: ${p.chunks.done}/${p.chunks.total} chunks, ${p.messages.done}/${p.messages.total} messages, ` +
      `${p.conversations.done}/${p.conversations.total} conversations, ${p.facts} facts, ${p.replayed} replayed\n`);
  };
}

export async function main(argv, { stdout = process.stdout, stderr = process.stderr, env = process.env } = {}) {
  if (argv.includes("--help") || argv.includes("-h")) return stdout.write(`${USAGE}\n`), 0;
  let args, settings;
  try {
    args = split(argv);
    settings = settingsOf(args.rest);
    if (settings.sync) throw new Error("--sync-url does not apply to import (sync the file afterwards with memwasm mcp --sync-url)");
  } catch (error) {
    stderr.write(`memwasm import: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  const { Memory } = await import("../index.node.mjs");
  let bytes;
  try {
    bytes = readFileSync(args.file);
  } catch (error) {
    stderr.write(`memwasm import: cannot read ${args.file}: ${error.message}\n`);
    return 1;
  }
  const options = { userId: settings.userId, format: args.format, dryRun: args.dryRun, onProgress: progressPrinter(stderr),
    ...(args.chunkMessages ? { chunkMessages: args.chunkMessages } : {}), ...(args.infer === false ? { infer: false } : {}) };
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  let memory;
  try {
    // The file is read and checked (a dry run) before the database is opened: a malformed one leaves no file.
    const read = await readSource(bytes);
    const source = read.value ?? read.text;
    const planOnly = {}; // a dry run adds nothing: no memory, no file, no model key needed
    importSettings.set(planOnly, { llm: settings.llm, graph: settings.graph, pipeline: settings.config.pipeline });
    const plan = await importConversations(planOnly, source, { ...options, dryRun: true, onProgress: undefined });
    if (args.dryRun) return stdout.write(`${JSON.stringify(plan, null, 2)}\n`), 0;
    checkModelKey(settings, env);
    memory = await Memory.open(settings.config);
    const report = await importConversations(memory, source, { ...options, signal: controller.signal });
    stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  } catch (error) {
    stderr.write(`memwasm import: ${error.code ? `${error.code}: ` : ""}${error.message}\n`);
    return error.code === "ABORTED" ? 130 : 1;
  } finally {
    process.off("SIGINT", stop);
    memory?.close();
  }
}

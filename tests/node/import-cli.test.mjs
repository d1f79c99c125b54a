// `memwasm import FILE --db PATH …` end to end: the dry run's counts (no file made, no model called), an import
// into a SQLite file with the scripted models (progress on stderr, the report on stdout, the memories in the
// file), the same command again (all replayed), and the exit codes of a malformed file and bad arguments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Memory, scriptedServer, testConfig } from "./helpers.mjs";
import { databaseFolder } from "./sqlite-support.mjs";
import { contents, fixturePath, modelCalls, scriptFacts } from "./import-support.mjs";

const server = scriptedServer();
const newFile = databaseFolder();
const BIN = new URL("../../pkg/bin/memwasm.mjs", import.meta.url).pathname;
const T = { timeout: 60_000 };

/** `memwasm …args` with the scripted models: `{ code, stdout, stderr }`. */
function memwasm(args, over = {}, onStderr = () => {}) {
  const env = { ...process.env, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl, ...over };
  // From tests/, where better-sqlite3 is installed (the package finds it from the working folder).
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: new URL("..", import.meta.url), stdio: ["ignore", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => (out.stdout += chunk));
  child.stderr.on("data", (chunk) => {
    out.stderr += chunk;
    onStderr(child, out.stderr);
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, ...out })));
}

const MODELS = ["--llm-model", "test-llm", "--embedding-model", "test-embed", "--dimensions", "64", "--no-graph"];

test("memwasm import --dry-run prints the counts and the model calls, and makes no file", T, async () => {
  const db = newFile();
  const run = await memwasm(["import", fixturePath("chatgpt-conversations.json"), "--db", db, "--user-id", "alice", "--dry-run", "--chunk-messages", "1", ...MODELS]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    dryRun: true, format: "chatgpt", conversations: 2, messages: 6, chunks: 6, modelCalls: 12,
    skipped: [{ conversationId: "conv-empty", why: "no messages" }],
  });
  assert.equal(existsSync(db), false);
  assert.equal(modelCalls(server), 0);
});

test("memwasm import fills the SQLite file; the same command again replays every chunk", T, async () => {
  scriptFacts(server);
  const db = newFile();
  const args = ["import", fixturePath("claude-conversations.json"), "--db", db, "--user-id", "alice", "--format", "claude", ...MODELS];
  const run = await memwasm(args);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.deepEqual([report.format, report.conversations, report.messages, report.chunks, report.facts], ["claude", 1, 4, 1, 2]);
  assert.match(run.stderr, /memwasm import: 1\/1 chunks, 4\/4 messages, 1\/1 conversations, 2 facts, 0 replayed/);
  const again = await memwasm(args);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual([JSON.parse(again.stdout).replayed, JSON.parse(again.stdout).facts], [1, 0]);
  const memory = await Memory.open(testConfig(server, { storage: { provider: "sqlite", config: { path: db } } }));
  try {
    const kept = await contents(memory, { userId: "alice" });
    assert.deepEqual(kept.map((m) => m.memory), ["Grows tomatoes on a balcony in Berlin", "Has a cat called Miso"]);
    assert.deepEqual(kept[0].sources, ["cm-1", "cm-2", "cm-3", "cm-4"]);
  } finally {
    memory.close();
  }
});

test("Ctrl-C stops the import between chunks with exit code 130; the same command resumes it", T, async () => {
  scriptFacts(server, { delayMs: 100 });
  const db = newFile();
  const args = ["import", fixturePath("chatgpt-conversations.json"), "--db", db, "--user-id", "alice", "--chunk-messages", "1", ...MODELS];
  let pressed = false;
  const stopped = await memwasm(args, {}, (child, stderr) => !pressed && stderr.includes("0/6 chunks") && (pressed = child.kill("SIGINT")));
  assert.equal(stopped.code, 130, stopped.stderr);
  const [, committed] = stopped.stderr.match(/ABORTED: importConversations: stopped by its signal after (\d) of 6 chunks/) ?? [];
  assert.ok(Number(committed) >= 1 && Number(committed) < 6, stopped.stderr);
  const resumed = await memwasm(args);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(JSON.parse(resumed.stdout).replayed, Number(committed));
  const memory = await Memory.open(testConfig(server, { storage: { provider: "sqlite", config: { path: db } } }));
  try {
    assert.equal((await contents(memory, { userId: "alice" })).length, 3, "the three facts, each once");
  } finally {
    memory.close();
  }
});

test("exit codes: 1 and IMPORT_FORMAT for a malformed file (nothing added), 2 for bad arguments", T, async () => {
  const db = newFile();
  const malformed = await memwasm(["import", fixturePath("chatgpt-malformed.json"), "--db", db, "--user-id", "alice", ...MODELS]);
  assert.equal(malformed.code, 1);
  assert.match(malformed.stderr, /IMPORT_FORMAT: .*conversation 1 \(id "conv-broken"\)/);
  assert.equal(malformed.stdout, "");
  assert.equal(modelCalls(server), 0);
  for (const args of [["--db", db], [fixturePath("mem0-export.json"), "--db", db, "--chunk-messages", "0"], [fixturePath("mem0-export.json"), "--db", db, "--bogus"]]) {
    const bad = await memwasm(["import", ...args]);
    assert.equal(bad.code, 2, `${args.join(" ")}: ${bad.stderr}`);
    assert.match(bad.stderr, /usage: memwasm import FILE/);
  }
  const noKey = await memwasm(["import", fixturePath("mem0-export.json"), "--db", db], { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" });
  assert.equal(noKey.code, 1);
  assert.match(noKey.stderr, /INVALID_CONFIG.*OPENAI_API_KEY/s);
  assert.match((await memwasm(["import", "--help"])).stdout, /--chunk-messages N/);
  const missing = await memwasm(["import", "/nonexistent/conversations.json", "--db", db]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read/);
});

// The server process: memories survive a restart, shutdown closes the SQLite file (stdin end, SIGTERM),
// bad command lines and a missing SDK say what to do.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { T, call, callFails, connect, freshDb, scriptAdd, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
before(() => server.ready);
const closed = (client) => new Promise((resolve) => (client.stdio.onclose = resolve));
const BIN = fileURLToPath(new URL("./node_modules/memwasm/bin/memwasm.mjs", import.meta.url));
const run = (bin, args, env = {}) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "", env: { ...process.env, ...env }, timeout: 30_000 });
const waitFor = async (check) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

test("memories survive a restart; stdin's end closes the database", T, async () => {
  const db = freshDb();
  const first = await connect(server, db);
  scriptAdd(server, "I am allergic to peanuts", ["Allergic to peanuts"]);
  await call(first, "add_memory", { text: "I am allergic to peanuts" });
  await first.close();
  assert.match(first.stderr(), /stdin ended, closing/);

  const second = await connect(server, db);
  const { results } = await call(second, "search_memories", { query: "peanuts" });
  assert.deepEqual(results.map((m) => m.memory), ["Allergic to peanuts"]);
  await second.close();
});

test("SIGTERM closes the database and ends the process; the file opens again at once", T, async () => {
  const db = freshDb();
  const client = await connect(server, db, ["--no-llm"], { direct: true });
  await call(client, "add_memory", { text: "Stored as it is" });
  const ended = closed(client);
  process.kill(client.stdio.pid, "SIGTERM");
  await ended;
  await waitFor(() => /SIGTERM, closing/.test(client.stderr()));
  assert.match(client.stderr(), /SIGTERM, closing/);

  const again = await connect(server, db, ["--no-llm"]);
  assert.deepEqual((await call(again, "get_memories")).results.map((m) => m.memory), ["Stored as it is"]);
  await again.close();
});

test("a second server on the same file exits with STORAGE_UNAVAILABLE; the first keeps serving", T, async () => {
  const db = freshDb();
  const first = await connect(server, db, ["--no-llm"]);
  try {
    const second = run(BIN, ["mcp", "--db", db, "--no-llm"], { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl });
    assert.equal(second.status, 1, second.stderr);
    assert.match(second.stderr, /STORAGE_UNAVAILABLE/);
    await call(first, "add_memory", { text: "still here" });
  } finally {
    await first.close();
  }
});

test("--no-llm stores texts as they are and the graph tools still write; --no-graph turns them off", T, async () => {
  const client = await connect(server, freshDb(), ["--no-llm", "--user-id", "ann"]);
  const added = await call(client, "add_memory", { text: "Ann takes the 8:15 train" });
  assert.equal(added.results[0].memory, "Ann takes the 8:15 train");
  assert.equal((await call(client, "get_memories", { user_id: "ann" })).totalCount, 1, "--user-id is the default user");
  await call(client, "create_entities", { entities: [{ name: "Ann", entityType: "person", observations: ["Commutes by train"] }] });
  assert.deepEqual((await call(client, "read_graph")).entities, [{ name: "Ann", entityType: "person", observations: ["Commutes by train"] }]);
  assert.equal(server.count("chat"), 0, "no LLM call");
  await client.close();

  const off = await connect(server, freshDb(), ["--no-llm", "--no-graph"]);
  assert.equal((await callFails(off, "add_observations", { observations: [] })).code, "NOT_SUPPORTED");
  assert.equal((await callFails(off, "read_graph")).code, "NOT_SUPPORTED");
  assert.equal((await callFails(off, "delete_entities", { entityNames: ["Ann"] })).code, "NOT_SUPPORTED");
  await off.close();
});

test("bad command lines exit with a message, without touching stdout", T, () => {
  for (const [args, message] of [
    [["mcp"], /--db PATH is required/],
    [["mcp", "--db", "x.db", "--bogus"], /Unknown option '--bogus'/],
    [["mcp", "--db", "x.db", "--weights", "w"], /--weights and --tokenizer go together/],
    [["mcp", "--db", "x.db", "--dimensions", "0"], /--dimensions must be a positive integer/],
    [["mcp", "--db", "x.db", "--sync-interval-ms", "500"], /--sync-interval-ms goes with --sync-url/],
    [["mcp", "--db", "x.db", "--sync-url", "http://127.0.0.1:9", "--sync-interval-ms", "5"], /--sync-interval-ms must be a whole number of 100 or more/],
    [["serve"], /usage: memwasm mcp/],
  ]) {
    const out = run(BIN, args);
    assert.equal(out.status, 2, `${args.join(" ")}: ${out.stderr}`);
    assert.match(out.stderr, message);
    assert.equal(out.stdout, "");
  }
  const noKey = run(BIN, ["mcp", "--db", freshDb()], { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" });
  assert.equal(noKey.status, 1);
  assert.match(noKey.stderr, /INVALID_CONFIG.*OPENAI_API_KEY/s);
  const noToken = run(BIN, ["mcp", "--db", freshDb(), "--sync-url", "http://127.0.0.1:9"], { OPENAI_API_KEY: "k", MEMWASM_SYNC_TOKEN: "" });
  assert.equal(noToken.status, 1);
  assert.match(noToken.stderr, /INVALID_CONFIG.*MEMWASM_SYNC_TOKEN/s);
  assert.match(run(BIN, ["mcp", "--help"]).stdout, /--user-id ID/);
});

test("without @modelcontextprotocol/sdk installed, the error says what to install", T, () => {
  const bare = fileURLToPath(new URL("../../pkg/bin/memwasm.mjs", import.meta.url)); // pkg/ has no node_modules
  const out = run(bare, ["mcp", "--db", freshDb()]);
  assert.equal(out.status, 1);
  assert.match(out.stderr, /npm install @modelcontextprotocol\/sdk@1/);
});

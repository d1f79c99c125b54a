// `memwasm mcp --sync-url`: the MCP server on a laptop's SQLite file shares its memory with the user's other
// devices through the Worker in workerd. What an agent adds through MCP reaches a Node device on its own (a
// round after each write), and what the device adds reaches the agent's searches on the next round.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Memory } from "memwasm";
import { WORKER_DIR, startServer, startWorker, tempDir } from "./helpers.mjs";

const TOKEN = "tok-alice-0123456789";
const PASSPHRASE = "correct horse battery staple";
// The package as worker/ installed it (a link to pkg/), run through the link so that its imports find the MCP
// SDK and better-sqlite3 in worker/node_modules, as in an app that installed memwasm.
const BIN = fileURLToPath(new URL("../node_modules/memwasm/bin/memwasm.mjs", import.meta.url));

const tool = async (client, name, args) => {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: ${result.content[0].text}`);
  return JSON.parse(result.content[0].text);
};

/** Polls `check` every 100 ms for up to 15 s. */
async function eventually(check, what) {
  for (let i = 0; i < 150; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`never: ${what}`);
}

test("an MCP server started with --sync-url shares its memory with another device", { timeout: 120_000 }, async (t) => {
  const server = await startServer();
  const worker = await startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify({ [TOKEN]: { tenant: "acme", user: "alice" } }) } });
  t.after(async () => {
    await worker.dispose();
    await server.close();
  });
  const url = String(await worker.mf.ready).replace(/\/$/, "");
  const folder = tempDir(t);
  const env = { ...process.env, OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.baseUrl, MEMWASM_SYNC_TOKEN: TOKEN, MEMWASM_SYNC_PASSPHRASE: PASSPHRASE };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--preserve-symlinks", "--preserve-symlinks-main", BIN, "mcp", "--db", join(folder, "laptop.db"), "--no-llm", "--no-graph", "--dimensions", "64", "--user-id", "alice",
      "--sync-url", url, "--sync-interval-ms", "300"],
    cwd: WORKER_DIR,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr.on("data", (chunk) => (stderr += chunk));
  const client = new Client({ name: "memwasm-sync-tests", version: "1.0.0" });
  await client.connect(transport);
  t.after(() => client.close());

  const phone = await Memory.open({
    llm: { provider: "none" },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "text-embedding-3-small", dimensions: 64 } },
    storage: { provider: "sqlite", config: { path: join(folder, "phone.db") } },
  });
  t.after(() => phone.close());
  const phoneTexts = async () => (await phone.getAll({ userId: "alice" })).results.map((m) => m.memory).sort();

  await tool(client, "add_memory", { text: "Alice takes the 8:15 train" });
  await eventually(async () => {
    await phone.sync({ url, token: TOKEN, passphrase: PASSPHRASE });
    return (await phoneTexts()).includes("Alice takes the 8:15 train");
  }, "the phone receives what the agent added");
  await phone.add("Alice is allergic to peanuts", { userId: "alice", infer: false });
  await phone.sync({ url, token: TOKEN, passphrase: PASSPHRASE });
  await eventually(async () => {
    const found = await tool(client, "search_memories", { query: "allergic to peanuts" });
    return JSON.stringify(found).includes("Alice is allergic to peanuts");
  }, "the agent's search finds what the phone added");
  assert.match(stderr, /in sync through http/);
  assert.doesNotMatch(stderr, /sync: SYNC_/, "no sync round failed");
});

// docs/sync.md's block runs as written (its Worker URL and token pointed at the Worker in workerd, its
// OpenAI calls at the scripted server), in a folder of its own: it prints what its comment says, and a
// second device with the same passphrase receives the memory.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Memory } from "memwasm";
import { blocksRunBy } from "../../tests/node/docs-pages.mjs";
import { runBlock, withEnv } from "../../tests/node/docs-run.mjs";
import { startServer, startWorker } from "./helpers.mjs";

const [block] = blocksRunBy("worker/tests/sync-docs.test.mjs");
const TOKEN = "tok-alice-docs-0123456789";

test("docs/sync.md: the block syncs a memory, and another device with the passphrase receives it", { timeout: 120_000 }, async (t) => {
  assert.equal(block?.page, "docs/sync.md", "the block is marked run by this file");
  const server = await startServer();
  const worker = await startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify({ [TOKEN]: { tenant: "acme", user: "alice" } }) } });
  const folder = mkdtempSync(join(tmpdir(), "memwasm-sync-docs-"));
  const cwd = process.cwd();
  t.after(async () => {
    process.chdir(cwd);
    rmSync(folder, { recursive: true, force: true });
    await worker.dispose();
    await server.close();
  });
  const url = String(await worker.mf.ready).replace(/\/$/, "");
  process.chdir(folder);
  const logged = [];
  const code = block.code.replace("https://memwasm.example.workers.dev", url);
  const env = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl, MEMWASM_TOKEN: TOKEN };
  await withEnv(env, () => runBlock(code, { __import: (specifier) => import(specifier), console: { log: (...args) => logged.push(args.join(" ")) } }));
  assert.deepEqual(logged, ["1 0"]);

  const phone = await Memory.open({ llm: { provider: "none" }, embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "text-embedding-3-small" } },
    storage: { provider: "sqlite", config: { path: join(folder, "phone.db") } } });
  t.after(() => phone.close());
  await phone.sync({ url, token: TOKEN, passphrase: "correct horse battery staple" });
  assert.deepEqual((await phone.getAll({ userId: "alice" })).results.map((m) => m.memory), ["Alice works at Acme"]);
});

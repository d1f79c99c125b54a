// Errors a new user meets first name the cause and the fix: a better-sqlite3 whose native build does not
// load, a KV binding that is undefined (missing from the wrangler config), and vectors whose length differs
// from the memory's on add. Each rejects with its code and stores nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { T, Memory, scriptedServer } from "./helpers.mjs";
import { scratchFolder } from "./sqlite-support.mjs";

const server = scriptedServer();
const MODULES = fileURLToPath(new URL("../node_modules/", import.meta.url));
const ENTRY = fileURLToPath(new URL("../../pkg/index.node.mjs", import.meta.url));

/** An app folder whose better-sqlite3 has its JavaScript but no native build (an install that skipped or
 * failed the build, or one made for another Node): the package's files without build/, and its deps. */
function appWithoutNativeBuild() {
  const app = scratchFolder();
  const copy = join(app, "node_modules/better-sqlite3");
  mkdirSync(copy, { recursive: true });
  for (const part of ["package.json", "lib"]) cpSync(join(MODULES, "better-sqlite3", part), join(copy, part), { recursive: true });
  for (const dep of ["bindings", "file-uri-to-path"]) symlinkSync(join(MODULES, dep), join(app, "node_modules", dep));
  return app;
}

test("a better-sqlite3 without its native build: STORAGE_UNAVAILABLE naming the rebuild, no file made", T, () => {
  const app = appWithoutNativeBuild();
  const db = join(app, "memory.db");
  const script = join(app, "open.mjs");
  writeFileSync(script, `import { Memory } from ${JSON.stringify(ENTRY)};
try {
  await Memory.open({ storage: { provider: "sqlite", config: { path: ${JSON.stringify(db)}, driver: "better-sqlite3" } },
    llm: { provider: "none" }, embedder: { provider: "none" } });
  console.log(JSON.stringify({ opened: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}
`);
  const out = spawnSync(process.execPath, [script], { cwd: app, encoding: "utf8", timeout: 20_000 });
  const said = JSON.parse(out.stdout.trim().split("\n").pop());
  assert.equal(said.code, "STORAGE_UNAVAILABLE", out.stdout + out.stderr);
  assert.doesNotMatch(said.message, /cannot be written/, "the file is not the cause");
  assert.match(said.message, /better-sqlite3/);
  assert.match(said.message, /native/);
  assert.match(said.message, /npm rebuild better-sqlite3/, "says how to rebuild it");
  assert.match(said.message, /Node 22\.5 or later.*node:sqlite/s, "names the built-in alternative");
  assert.equal(existsSync(db), false, "no database file is made");
});

test("storage binding: undefined (missing from the wrangler config): INVALID_CONFIG saying where to add it", T, async () => {
  for (const storage of [{ provider: "cloudflare-kv", binding: undefined }, { provider: "cloudflare-kv" }]) {
    await assert.rejects(
      () => Memory.open({ storage, llm: { provider: "none" }, embedder: { provider: "none" } }),
      (error) => {
        assert.equal(error.code, "INVALID_CONFIG");
        assert.doesNotMatch(error.message, /unknown field/, "binding is a known field");
        assert.match(error.message, /storage\.binding/);
        assert.match(error.message, /kv_namespaces/, "names the wrangler config section");
        assert.match(error.message, /env\.MEMORY_KV/);
        return true;
      },
    );
  }
});

test("add() with vectors of another length: the message names both lengths and what to change", T, async () => {
  const memory = new Memory({
    llm: { provider: "none" },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "e", dimensions: 64 } },
    retry: { maxRetries: 0 },
  });
  server.script({ kind: "embedding", match: "tea", vector: Array.from({ length: 32 }, (_, i) => i + 1) });
  await assert.rejects(
    () => memory.add("I like tea", { userId: "u" }),
    (error) => {
      assert.equal(error.code, "DIMENSION_MISMATCH");
      assert.match(error.message, /\b32\b/, "the model's length");
      assert.match(error.message, /\b64\b/, "the memory's length");
      assert.match(error.message, /dimensions.*embeddingDims/s, "the setting to change");
      assert.match(error.message, /new store|re-embed/, "what to do with memories stored already");
      return true;
    },
  );
  assert.deepEqual((await memory.getAll({ userId: "u" })).results, [], "nothing stored");
});

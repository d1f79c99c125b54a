// What `memwasm mcp` says to a command-line user: with no model key, the environment variables and flags to
// use (not Memory config fields, which a desktop client's config cannot set); without the SDK, an install
// beside the installed package, never an `npx -p memwasm` that would fetch whatever the registry holds.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { T, freshDb } from "./helpers.mjs";

const BIN = fileURLToPath(new URL("./node_modules/memwasm/bin/memwasm.mjs", import.meta.url));
const run = (bin, args, env = {}) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "", env: { ...process.env, ...env }, timeout: 30_000 });

test("no model key: INVALID_CONFIG naming OPENAI_API_KEY, OPENAI_BASE_URL and --weights, no config fields", T, () => {
  for (const extra of [[], ["--no-llm"], ["--llm-model", "gpt-4o-mini"]]) {
    const db = freshDb();
    const out = run(BIN, ["mcp", "--db", db, ...extra], { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" });
    assert.equal(out.status, 1, out.stderr);
    assert.match(out.stderr, /INVALID_CONFIG/);
    for (const named of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "--weights", "--tokenizer", '"env"']) {
      assert.ok(out.stderr.includes(named), `${extra.join(" ")}: names ${named}: ${out.stderr}`);
    }
    assert.doesNotMatch(out.stderr, /llm\.config|embedder\.config|apiKey|llm\.provider/, "no Memory config fields");
    assert.equal(out.stdout, "");
    assert.equal(existsSync(db), false, "no database file is made");
  }
});

test("without the SDK, the hint installs it beside memwasm and never runs npx -p memwasm", T, () => {
  const bare = fileURLToPath(new URL("../../pkg/bin/memwasm.mjs", import.meta.url)); // pkg/ has no node_modules
  const out = run(bare, ["mcp", "--db", freshDb(), "--no-llm"], { OPENAI_API_KEY: "k" });
  assert.equal(out.status, 1);
  assert.match(out.stderr, /MISSING_SDK/);
  assert.match(out.stderr, /npm install @modelcontextprotocol\/sdk@1/);
  assert.doesNotMatch(out.stderr, /npx/, "npx would fetch memwasm from the registry, where it is not published");
});

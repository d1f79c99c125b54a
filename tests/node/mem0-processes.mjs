// Shared by the mem0-*.test.mjs files: Node child processes with their own home folder (mem0 and
// `memwasm/mem0` keep memories under ~/.mem0), real mem0 beside memwasm/mem0 (mem0-real.child.mjs), and
// configs for both pointed at the scripted server.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** A temporary home folder for this test file's child processes, removed after its tests. */
export function homeFolder() {
  const home = mkdtempSync(join(tmpdir(), "memwasm-mem0-home-"));
  after(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

/** Points this test process's home folder (where memwasm/mem0, like mem0, keeps `~/.mem0`) at a temporary one
 * for the file's tests, so that no test reads or writes the real home. */
export function isolateHome() {
  process.env.HOME = homeFolder();
  return process.env.HOME;
}

/** Runs `node <script> ...args` (a path, or a file beside this one) in `cwd` with `env` added; resolves
 * {code, stdout, stderr}. */
export function runNode(script, args, { env = {}, cwd = HERE } = {}) {
  return new Promise((resolve) => {
    const options = { cwd, env: { ...process.env, MEM0_TELEMETRY: "false", ...env }, timeout: 60_000 };
    execFile(process.execPath, [isAbsolute(script) ? script : join(HERE, script), ...args], options, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The JSON lines `script` printed (see runNode), asserting it exited with 0. */
export async function jsonLines(script, args, options) {
  const run = await runNode(script, args, options);
  assert.equal(run.code, 0, `${script} ${args[0] ?? ""} failed:\n${run.stderr}`);
  return run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
}

/** Real mem0 3.3.1 running `job` (see mem0-real.child.mjs) with HOME and the working folder at `home`. */
export async function realMem0(job, home) {
  const installed = fileURLToPath(new URL("../../worker/node_modules/mem0ai/package.json", import.meta.url));
  assert.ok(existsSync(installed), "mem0ai is not installed in worker/node_modules: run `npm install` in worker/");
  const [result] = await jsonLines("mem0-real.child.mjs", [JSON.stringify(job)], { env: { HOME: home }, cwd: home });
  return result;
}

/** A mem0 config (mem0's key names: baseURL, embeddingDims) with both models on the scripted server. */
export function mem0Config(server, more = {}) {
  return {
    llm: { provider: "openai", config: { apiKey: "test-key", model: "test-llm", baseURL: server.baseUrl } },
    embedder: { provider: "openai", config: { apiKey: "test-key", model: "test-embed", baseURL: server.baseUrl, embeddingDims: 64 } },
    ...more,
  };
}

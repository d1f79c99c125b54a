// Shared by the tests here: the npm tarball (packed once by scripts/suites/65-installed.sh, passed as
// MEMWASM_TARBALL; packed here when a file runs alone), fresh projects that install it from the tarball into
// a temp dir, and long-running commands (servers) in their own process group.
import assert from "node:assert/strict";
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, lstatSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PKG = fileURLToPath(new URL("../../pkg/", import.meta.url));
export const MODEL_DIR = process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
/** Starts of the default fact-extraction and update-decision system prompts. */
export const EXTRACT = "You are an expert at extracting structured, atomic facts";
export const DECIDE = "You are a memory management system";

/** A temp dir removed after test `t`. */
export function tempDir(t, name = "memwasm-installed-") {
  const dir = mkdtempSync(join(tmpdir(), name));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The path of the packed memwasm tarball. */
export function tarball(t) {
  if (process.env.MEMWASM_TARBALL) return process.env.MEMWASM_TARBALL;
  const dir = tempDir(t, "memwasm-pack-");
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { cwd: PKG, encoding: "utf8" }));
  return join(dir, packed.filename);
}

/** Runs `command` in `cwd`; resolves with its output, rejects with it (and the exit code) on failure. */
export function run(command, args, cwd, env = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      const took = `${command} ${args.join(" ")}: ${((Date.now() - started) / 1000).toFixed(1)} s`;
      if (error) reject(new Error(`${took}, exit ${error.code}\n${output}`));
      else resolve(Object.assign(output, { took }));
    });
  });
}

/** Copies fixture `name` (a folder here) into a fresh temp dir and installs its devDependencies and the
 * tarball with npm (a real copy in node_modules, never a link to pkg/). Returns the project's dir. */
export async function project(t, name) {
  const dir = join(tempDir(t), name);
  cpSync(fileURLToPath(new URL(name, import.meta.url)), dir, { recursive: true });
  const installed = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", tarball(t)], dir);
  t.diagnostic(installed.took);
  const stat = lstatSync(join(dir, "node_modules/memwasm"));
  assert.ok(stat.isDirectory() && !stat.isSymbolicLink(), "memwasm is installed as files, not linked");
  return dir;
}

/** Starts a server command in its own process group; resolves with the first match of `ready` in its output.
 * It is stopped (SIGTERM to the group) after test `t`, or by calling `stop()`. */
export async function serve(t, command, args, { cwd, env = {}, ready, timeout = 120_000 }) {
  const child = spawn(command, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const exited = once(child, "exit");
  let output = "";
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => process.kill(-child.pid, "SIGKILL"), 10_000); // the whole group, if TERM is not enough
    await exited;
    clearTimeout(timer);
  };
  t.after(stop);
  const match = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start in ${timeout} ms:\n${output}`)), timeout);
    const read = (chunk) => {
      output += chunk;
      const found = output.match(ready);
      if (found) (clearTimeout(timer), resolve(found));
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    exited.then(([code]) => (clearTimeout(timer), reject(new Error(`${command} exited with ${code}:\n${output}`))));
  });
  return { match, stop, output: () => output };
}

/** Scripts the LLM's two answers for one `add` of `input`: these facts, each one new. */
export function scriptAdd(server, input, facts) {
  server.script([
    { kind: "chat", match: [EXTRACT, input], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, ...facts], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
  ]);
}

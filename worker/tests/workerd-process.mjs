// The built worker in workerd (through Miniflare, storage persisted to a directory), in a process of its own
// so that a test can SIGKILL it: `spawnWorker` starts this file in a new process group (workerd is a child of
// it, in the same group) and `kill()` SIGKILLs the whole group, as a machine that loses power would.
//
// Run as a script, it reads `{baseUrl, persist, vars}` (JSON) from its first argument, starts the worker and
// prints one line `ready <url>`; workerd's own output (the worker's console) follows on its stdout and stderr.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

/** Sends `signal` to the process group `child` leads (it and what it started) and waits for it to exit. */
export async function stopGroup(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  process.kill(-child.pid, signal);
  await exited;
}

/** This file, started with `options` over the scripted `server`; resolves once the worker answers, with its
 * `url`, `output()` (what the process printed so far), `waitFor(text)` and `kill()`. Killed after test `t`. */
export async function spawnWorker(t, server, { persist, vars }) {
  const options = JSON.stringify({ baseUrl: server.baseUrl, persist, vars });
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), options], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const waiting = new Set();
  const read = (chunk) => {
    output += chunk;
    for (const wait of waiting) wait();
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  const kill = () => stopGroup(child, "SIGKILL");
  t.after(kill);
  /** Resolves once the process printed `text` (rejects when it exits first or after 60 s). */
  const waitFor = (text) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`never printed ${JSON.stringify(text)}:\n${output}`)), 60_000);
      const exit = () => done(new Error(`exited before printing ${JSON.stringify(text)}:\n${output}`));
      const check = () => output.includes(text) && done();
      function done(error) {
        clearTimeout(timer);
        waiting.delete(check);
        child.off("exit", exit);
        error ? reject(error) : resolve();
      }
      waiting.add(check);
      child.on("exit", exit);
      check();
    });
  await waitFor("ready ");
  const url = output.match(/ready (\S+)/)[1];
  return { url, output: () => output, waitFor, kill };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startWorker } = await import("./helpers.mjs");
  const { baseUrl, persist, vars } = JSON.parse(process.argv[2]);
  const worker = await startWorker({ baseUrl }, { persist, vars });
  console.log(`ready ${await worker.mf.ready}`);
}

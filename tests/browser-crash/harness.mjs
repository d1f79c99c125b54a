// Shared by the tests in this folder: the scripted model server, a static server for the repository root
// (page.html imports /pkg/index.browser.mjs), and Debian's headless Chromium started by hand in its own
// process group, so a test can SIGKILL the whole browser and start another on the same profile directory.
// Everything lives under one temp dir, removed by close().
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { serve } from "../../www/serve.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--no-default-browser-check",
  "--enable-logging=stderr"];

/** What Chromium logs when it finds an origin's IndexedDB files corrupt at open and deletes all of them
 * (content/browser/indexed_db): a browser SIGKILLed in the middle of a LevelDB write, then reopened and
 * written, then killed and reopened again, can end there. No page can prevent or undo it. */
export const CHROMIUM_DELETED_CORRUPT_INDEXEDDB = /IndexedDB recovering from a corrupted \(and deleted\) database/;

export async function harness() {
  const llm = await startScriptedServer();
  const site = await serve({ port: 0 });
  const scratch = mkdtempSync(join(tmpdir(), "memwasm-browser-crash-"));
  const browsers = new Set();

  return {
    llm,

    /** A Memory config on IndexedDB database `dbName`; models on the scripted server (`infer: false` adds never call the LLM). */
    config: (dbName) => ({
      llm: { provider: "openai", config: { baseUrl: llm.baseUrl, apiKey: "test", model: "unused" } },
      embedder: { provider: "openai", config: { baseUrl: llm.baseUrl, apiKey: "test" } },
      storage: { provider: "indexeddb", config: { dbName } },
      retry: { maxRetries: 0 },
    }),

    /** A fresh, empty user-data-dir. */
    profile: () => mkdtempSync(join(scratch, "profile-")),

    /** Starts Chromium on `profile` and connects; `kill()` SIGKILLs its process group and waits for the exit. */
    async launch(profile) {
      const child = spawn(CHROMIUM, [...ARGS, `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank"],
        { detached: true, stdio: ["ignore", "ignore", "pipe"] });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      let stderr = "";
      const indexedDbLog = []; // Chromium's IndexedDB lines, kept whole (the rest only until DevTools answers)
      let partial = ""; // a line the last chunk of stderr ended in the middle of
      const endpoint = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`chromium did not start:\n${stderr}`)), 30_000);
        child.stderr.on("data", (chunk) => {
          if (stderr.length < 20_000) stderr += chunk; // keep draining: a full pipe would stall Chromium
          const lines = (partial + chunk).split("\n");
          partial = lines.pop();
          indexedDbLog.push(...lines.filter((line) => line.includes("indexed_db")));
          const found = lines.map((line) => /DevTools listening on (ws:\/\/\S+)/.exec(line)).find(Boolean);
          if (found) (clearTimeout(timer), resolve(found[1]));
        });
        exited.then((code) => (clearTimeout(timer), reject(new Error(`chromium exited (${code}):\n${stderr}`))));
      });
      const browser = await chromium.connectOverCDP(endpoint);
      const handle = {
        context: browser.contexts()[0],
        /** Whether Chromium logged a line matching `pattern` about IndexedDB (waiting up to `ms` for its
         * stderr to arrive). */
        async logged(pattern, ms = 2000) {
          const deadline = Date.now() + ms;
          while (!indexedDbLog.some((line) => pattern.test(line))) {
            if (Date.now() >= deadline) return false;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          return true;
        },
        async kill() {
          browsers.delete(handle);
          try {
            process.kill(-child.pid, "SIGKILL"); // the browser, its renderers and utility processes
          } catch {} // already gone
          await exited;
          await browser.close().catch(() => {});
        },
      };
      browsers.add(handle);
      return handle;
    },

    /** A new page of `context` with the package loaded as `window.memwasm` (same origin every time). */
    async openPage(context) {
      const page = await context.newPage();
      await page.goto(`${site.url}/tests/browser-crash/page.html`);
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      return page;
    },

    async close() {
      for (const browser of [...browsers]) await browser.kill();
      await site.close();
      await llm.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

// A Vite + TypeScript app that installs the tarball: `tsc --noEmit` (strict, skipLibCheck false, the Vite
// template's lib) and `vite build` pass, and the built app, served from dist/ to Debian's headless Chromium,
// adds and searches on IndexedDB with the scripted server as model and embedder (and dry-runs an import, whose
// code Vite splits into a chunk fetched on that call), and with the on-device embedder (memwasm/local-embedder,
// weights from MINILM_DIR).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { MODEL_DIR, project, run, scriptAdd } from "./helpers.mjs";
import { serveStatic } from "./static.mjs";

const ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

test("a Vite + TypeScript app", { timeout: 300_000 }, async (t) => {
  const dir = await project(t, "vite-app");
  const bin = (name) => join(dir, "node_modules/.bin", name);

  await t.test("tsc --noEmit passes with strict and skipLibCheck false", async (t) => {
    t.diagnostic((await run(bin("tsc"), ["--noEmit"], dir)).took);
  });
  await t.test("vite build bundles the package, its .wasm files and the embedder's worker", async (t) => {
    t.diagnostic((await run(bin("vite"), ["build"], dir)).took);
    assert.ok(existsSync(join(dir, "dist/index.html")));
  });

  const llm = await startScriptedServer({ port: 0 });
  t.after(() => llm.close());
  const site = await serveStatic(join(dir, "dist"), MODEL_DIR);
  t.after(() => site.close());
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
  t.after(() => browser.close());
  const context = await browser.newContext();
  const errors = [];
  const open = async () => {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(site.url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    return page;
  };

  await t.test("add + search on IndexedDB with the scripted model server; a new page finds the memories", async () => {
    const page = await open();
    scriptAdd(llm, "I drink green tea and live in Lisbon", ["User likes green tea", "User lives in Lisbon"]);
    const events = await page.evaluate(([url, text]) => window.app.add(url, "vite-app", text, "alice"), [llm.baseUrl, "I drink green tea and live in Lisbon"]);
    assert.deepEqual(events, ["ADD User likes green tea", "ADD User lives in Lisbon"]);
    await page.close();
    const again = await open();
    const found = await again.evaluate((url) => window.app.search(url, "vite-app", "where does she live Lisbon", "alice"), llm.baseUrl);
    assert.equal(found[0], "User lives in Lisbon");
    assert.equal(await again.evaluate((url) => window.app.missingScope(url, "vite-app"), llm.baseUrl), "SCOPE_REQUIRED");
    const fetched = [];
    again.on("request", (request) => fetched.push(new URL(request.url()).pathname));
    assert.equal(await again.evaluate((url) => window.app.importDryRun(url, "vite-app", "alice"), llm.baseUrl), 2,
      "the importer, a chunk of its own in Vite's build, loads on the first call and reads the export");
    assert.ok(fetched.some((path) => path.endsWith(".js")), `the importer's chunk was fetched on the call: ${fetched}`);
    assert.deepEqual(errors, []);
  });

  await t.test("add + search on IndexedDB with the on-device embedder and no LLM", async () => {
    const page = await open();
    const [dimensions, cached, top] = await page.evaluate(() => window.app.local("/minilm/model.safetensors", "/minilm/tokenizer.json", "vite-app-local"));
    assert.deepEqual([dimensions, cached, top], ["384", "true", "User likes Python"]);
    assert.deepEqual(errors, []);
  });
});

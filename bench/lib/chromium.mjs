// Debian's headless Chromium for the embedder benches (local-embedder.mjs, peak.mjs, onnx/ort.mjs), driven
// by the playwright-core of tests/local-embedder (never a downloaded browser).
import { createRequire } from "node:module";
import { serveTestSite } from "../../tests/local-embedder/server.mjs";

const require = createRequire(new URL("../../tests/local-embedder/package.json", import.meta.url));

/** Runs `use(page, errors)` in a fresh page, at `path` of the repository root served over HTTP when given
 *  (tests/local-embedder/server.mjs, which also serves the weights under /minilm/); `errors` collects the
 *  page's uncaught errors from before it loads. Closes everything. */
export async function withChromiumPage(use, path) {
  const { chromium } = require("playwright-core");
  const site = path ? await serveTestSite() : undefined;
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    if (path) await page.goto(`${site.url}${path}`);
    return await use(page, errors);
  } finally {
    await browser.close();
    await site?.close();
  }
}

// A static server for the browser tests: the repository root (the page imports /pkg/…), the weights
// under /minilm/ (from MINILM_DIR) and /cross-encoder/ (CROSS_ENCODER_DIR), and broken copies under /broken/. Counts the requests per path, so a
// test can tell that a reload made no network request for the weights.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { CROSS_ENCODER_DIR, MODEL_DIR } from "./fixtures.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const types = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

export async function serveTestSite() {
  const hits = new Map();
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/broken/model.safetensors") return response.writeHead(200).end("this is not a safetensors file");
    if (path === "/broken/tokenizer.json") return response.writeHead(200).end('{"version": "1.0", "model": ');
    const file = path.startsWith("/minilm/") ? join(MODEL_DIR, path.slice(8))
      : path.startsWith("/cross-encoder/") ? join(CROSS_ENCODER_DIR, path.slice(15)) : normalize(join(root, path));
    if (![root, MODEL_DIR, CROSS_ENCODER_DIR].some((dir) => file.startsWith(dir))) return response.writeHead(403).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream", "content-length": body.length, "cache-control": "no-store" });
      response.end(body);
    } catch {
      response.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    hits: (prefix) => [...hits].filter(([p]) => p.startsWith(prefix)).reduce((n, [, c]) => n + c, 0),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

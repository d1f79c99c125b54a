// Serves the repository root over HTTP so the playground (/www/) can import the package (/pkg/).
// Usage: node www/serve.mjs [--port 8080]   (port 0 picks a free one; prints "serving http://127.0.0.1:N/www/")
// The offline provider's model (all-MiniLM-L6-v2) is served under /www/models/ from MINILM_DIR (default
// ~/.cache/memwasm/minilm, filled by `bash scripts/setup.sh minilm`); /www/models/available.json says
// whether it is there and how big it is.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
};

const MODEL_DIR = () => process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
const MODEL_PREFIX = "/www/models/all-MiniLM-L6-v2/";
const MODEL_FILES = ["model.safetensors", "tokenizer.json"];

/** `{available, bytes}`: whether the offline model's files are in `dir`, and their total size. */
async function modelManifest(dir) {
  try {
    const sizes = await Promise.all(MODEL_FILES.map(async (name) => (await stat(join(dir, name))).size));
    return { available: true, bytes: sizes.reduce((a, b) => a + b, 0) };
  } catch {
    return { available: false, bytes: 0 };
  }
}

/** Starts the server; resolves to `{url, close}`. `modelDir` holds the offline model (default: MINILM_DIR). */
export async function serve({ port = 8080, host = "127.0.0.1", modelDir = MODEL_DIR() } = {}) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    if (path === "/www/models/available.json") {
      response.writeHead(200, { "content-type": types[".json"], "cache-control": "no-cache" });
      return response.end(JSON.stringify(await modelManifest(modelDir)));
    }
    const model = path.startsWith(MODEL_PREFIX) && MODEL_FILES.includes(path.slice(MODEL_PREFIX.length));
    let file = model ? join(modelDir, path.slice(MODEL_PREFIX.length)) : normalize(join(root, path));
    if (!model && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      response.writeHead(403).end("forbidden");
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream", "cache-control": "no-cache" });
      response.end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const url = `http://${host}:${server.address().port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = process.argv.indexOf("--port");
  const { url } = await serve({ port: flag > 0 ? Number(process.argv[flag + 1]) : 8080 });
  console.log(`serving ${url}/www/`);
}

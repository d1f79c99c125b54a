// Reading the weights and the tokenizer: an ArrayBuffer / typed array / JSON string is used as is; a URL is
// fetched once and kept in the Cache API (browsers and workers), so a second open makes no network
// request. `readFile` (Node) reads file: URLs and plain paths. Failures are `EMBEDDER_LOAD` errors.

export const CACHE_NAME = "memwasm-local-embedder-v1";

/** An Error with a stable `code`, like the module's own. */
export function loadError(message, cause) {
  const error = new Error(`EMBEDDER_LOAD: ${message}`, cause ? { cause } : undefined);
  error.name = "LocalEmbedderError";
  error.code = "EMBEDDER_LOAD";
  return error;
}

/** The bytes (`as: "bytes"`) or text (`as: "text"`) of `source`. */
export async function readSource(source, { as, what, cache = true, onProgress, readFile, base }) {
  if (source == null || source === "") throw loadError(`${what} is missing`);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes = source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return as === "text" ? new TextDecoder().decode(bytes) : bytes;
  }
  if (typeof source === "string" && as === "text" && source.trimStart().startsWith("{")) return source;
  if (typeof source !== "string" && !(source instanceof URL)) throw loadError(`${what} must be a URL, a string or bytes`);
  let url;
  try {
    url = new URL(source, base);
  } catch {
    if (!readFile) throw loadError(`${what}: not a URL: ${source}`);
    url = null;
  }
  if ((url === null || url.protocol === "file:") && readFile) {
    try {
      const bytes = await readFile(url ?? source);
      return as === "text" ? new TextDecoder().decode(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (e) {
      throw loadError(`${what}: ${e.message}`, e);
    }
  }
  const response = await cachedFetch(url, what, cache);
  const bytes = await readBody(response, what, onProgress);
  return as === "text" ? new TextDecoder().decode(bytes) : bytes;
}

/** The cached response for `url`, else a network fetch that is stored for next time. */
async function cachedFetch(url, what, cache) {
  const store = cache && globalThis.caches ? await globalThis.caches.open(CACHE_NAME).catch(() => null) : null;
  const hit = store && (await store.match(url.href));
  if (hit) return hit;
  let response;
  try {
    response = await fetch(url.href);
  } catch (e) {
    throw loadError(`${what}: could not fetch ${url.href}: ${e.message}`, e);
  }
  if (!response.ok) throw loadError(`${what}: ${url.href} answered HTTP ${response.status}`);
  if (!store) return response;
  // Cache first, then read the cached copy: the body is downloaded once.
  await store.put(url.href, response.clone()).catch(() => {});
  return response;
}

/** Reads a body, reporting `{what, loaded, total}` as it arrives. */
async function readBody(response, what, onProgress) {
  const total = Number(response.headers.get("content-length")) || 0;
  if (!onProgress || !response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress({ what, loaded, total });
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, at), (at += chunk.byteLength);
  return bytes;
}

/** True when `url` is already in the cache (for a download button that knows it can skip the download). */
export async function isCached(url, base = globalThis.location?.href) {
  if (!globalThis.caches) return false;
  const store = await globalThis.caches.open(CACHE_NAME);
  return Boolean(await store.match(new URL(url, base).href));
}

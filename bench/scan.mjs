// One scan figure, in one Node process: the native reference (a child process) writes the data set,
// every contender is built over the same bytes (the pure-JS ones in a worker thread, an isolate of their
// own: see lib/js-worker.mjs), then top-10 searches are timed in interleaved rounds — native f32, native
// int8, memwasm's index and public search(), usearch's exact search, the JS loops, Orama — so that load and
// drift hit all of them alike. Prints one JSON object.
//
// Usage: node scan.mjs '{"binary":…,"dataDir":…,"kind":…,"n":…,"dim":…,"queries":…,"seed":…,"rounds":…,"contenders":[…]}'
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";

import { startScriptedServer } from "../tests/support/scripted-server.mjs";
import { K, memwasmIndex, memwasmPublic, memwasmPublicVector, usearchExact } from "./lib/contenders.mjs";
import { nativeContender, startNative } from "./lib/native.mjs";
import { floats, median, recall, uints } from "./lib/stats.mjs";

const spec = JSON.parse(process.argv[2]);
const native = await startNative(spec.binary, { ...spec, k: K });
const read = (part) => readFileSync(join(spec.dataDir, `${native.header.name}.${part}`));
const vectors = floats(read("vectors"));
const users = uints(read("users"));
const queryData = floats(read("queries"));
const queries = [];
for (let at = 0; at < queryData.length; at += spec.dim) queries.push(queryData.subarray(at, at + spec.dim));
const data = { vectors, users, dim: spec.dim, queries };
const exact = native.header.exact;

const server = spec.contenders.some((c) => c.startsWith("public")) ? await startScriptedServer({ port: 0 }) : null;

// The pure-JS contenders live in a worker thread (an isolate of their own, see lib/js-worker.mjs).
const worker = new Worker(new URL("./lib/js-worker.mjs", import.meta.url), {
  workerData: { dataDir: spec.dataDir, name: native.header.name, dim: spec.dim },
  resourceLimits: { maxOldGenerationSizeMb: 8192 },
});
const pending = new Map();
let nextId = 0;
worker.on("message", (reply) => pending.get(reply.id)?.(reply));
const ask = (message) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, (reply) => (pending.delete(id), reply.error ? reject(new Error(reply.error)) : resolve(reply)));
    worker.postMessage({ id, ...message });
  });
/** A JS contender whose builds and rounds run in the worker (timed there). */
function inWorker(key) {
  return {
    name: key,
    async build() {
      const reply = await ask({ op: "build", key });
      this.name = reply.name;
      this.workerLoadMs = reply.loadMs;
      this.recall = recall(exact, reply.found);
    },
    round: async () => (await ask({ op: "round", key })).times,
  };
}
const make = {
  "native-f32": () => nativeContender(native, "f32"),
  "native-int8": () => nativeContender(native, "int8"),
  "memwasm-f32": () => memwasmIndex("none"),
  "memwasm-int8": () => memwasmIndex("int8"),
  "memwasm-auto": () => memwasmIndex("auto"),
  "public-f32": () => memwasmPublic(server, "none"),
  "public-int8": () => memwasmPublic(server, "int8"),
  "public-vector": () => memwasmPublicVector(server),
  "usearch-f32": () => usearchExact("f32"),
  "usearch-i8": () => usearchExact("i8"),
  "js-grouped": () => inWorker("js-grouped"),
  "js-lean": () => inWorker("js-lean"),
  "js-loop": () => inWorker("js-loop"),
  "js-typical": () => inWorker("js-typical"),
  orama: () => inWorker("orama"),
};
const contenders = [];
for (const key of ["native-f32", "native-int8", ...spec.contenders]) contenders.push({ key, ...(await make[key]()), times: [] });

for (const c of contenders) {
  const start = performance.now();
  await c.build(data);
  c.loadMs = c.workerLoadMs ?? performance.now() - start;
  if (c.search) c.recall = recall(exact, await Promise.all(queries.map((query, q) => c.search(query, q))));
}

/** One round of every query: timed here, or natively in the child. */
async function round(c) {
  if (c.round) return c.round();
  const times = [];
  for (let q = 0; q < queries.length; q++) {
    const start = performance.now();
    const rows = c.search(queries[q], q);
    if (rows instanceof Promise) await rows;
    times.push(performance.now() - start);
  }
  return times;
}

// One warm-up round, then the measured ones; contenders take turns within every round.
for (let r = -1; r < spec.rounds; r++) {
  for (const c of contenders) {
    const times = await round(c);
    if (r >= 0) c.times.push(...times);
  }
}
await native.close();
await worker.terminate();
await server?.close();

const result = { name: native.header.name, contenders: {} };
for (const c of contenders) {
  result.contenders[c.key] = {
    name: c.name,
    medianMs: median(c.times),
    samples: c.times.length,
    loadMs: c.loadMs,
    recall: c.recall,
    ...(c.vectorBytes ? { vectorBytes: c.vectorBytes() } : {}),
  };
}
process.stdout.write(JSON.stringify(result) + "\n");

// One scan figure, in one Node process: the native reference (a child process) writes the data set,
// every Node contender is built over the same bytes, then top-10 searches are timed in interleaved
// rounds — native f32, native int8, memwasm f32, memwasm int8, two JS loops, Orama — so that load and
// drift hit all of them alike. Prints one JSON object.
//
// Usage: node scan.mjs '{"binary":…,"dataDir":…,"kind":…,"n":…,"dim":…,"queries":…,"seed":…,"rounds":…,"contenders":[…]}'
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import { startScriptedServer } from "../tests/support/scripted-server.mjs";
import { K, jsLoop, jsTypical, memwasmIndex, memwasmPublic, orama } from "./lib/contenders.mjs";
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
const make = {
  "native-f32": () => nativeContender(native, "f32"),
  "native-int8": () => nativeContender(native, "int8"),
  "memwasm-f32": () => memwasmIndex("none"),
  "memwasm-int8": () => memwasmIndex("int8"),
  "public-f32": () => memwasmPublic(server, "none"),
  "public-int8": () => memwasmPublic(server, "int8"),
  "js-loop": () => jsLoop(),
  "js-typical": () => jsTypical(),
  orama: () => orama(),
};
const contenders = ["native-f32", "native-int8", ...spec.contenders].map((key) => ({ key, ...make[key](), times: [] }));

for (const c of contenders) {
  const start = performance.now();
  await c.build(data);
  c.loadMs = performance.now() - start;
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

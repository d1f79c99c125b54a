// The pure-JS contenders, run in a worker thread: a V8 isolate of their own. In the main isolate, memwasm's
// wasm memory grows, which detaches an ArrayBuffer, and from then on V8 guards every typed-array access of
// optimised JS against detachment: a plain Float32Array loop there runs ~1.5-2× slower. A JS-only app never
// pays that, so neither do these contenders.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";

import { jsGrouped, jsLean, jsLoop, jsTypical, orama } from "./contenders.mjs";
import { floats, uints } from "./stats.mjs";

const { dataDir, name, dim } = workerData;
const read = (part) => readFileSync(join(dataDir, `${name}.${part}`));
const vectors = floats(read("vectors"));
const users = uints(read("users"));
const queryData = floats(read("queries"));
const queries = [];
for (let at = 0; at < queryData.length; at += dim) queries.push(queryData.subarray(at, at + dim));
const data = { vectors, users, dim, queries };
const make = { "js-grouped": jsGrouped, "js-lean": jsLean, "js-loop": jsLoop, "js-typical": jsTypical, orama };
const contenders = {};

parentPort.on("message", async ({ id, op, key }) => {
  try {
    if (op === "build") {
      const c = (contenders[key] = make[key]());
      const start = performance.now();
      await c.build(data);
      const loadMs = performance.now() - start;
      const found = await Promise.all(queries.map((query) => c.search(query)));
      parentPort.postMessage({ id, name: c.name, loadMs, found });
    } else if (op === "round") {
      const c = contenders[key];
      const times = [];
      for (const query of queries) {
        const start = performance.now();
        const rows = c.search(query);
        if (rows instanceof Promise) await rows;
        times.push(performance.now() - start);
      }
      parentPort.postMessage({ id, times });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.stack ?? error) });
  }
});

// The native reference as a child process: it writes (or reuses) the data set, reports the exact top-k,
// then runs timed rounds on request, so the figure's Node process can interleave them with its own.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Starts the native bench binary; resolves once its data set is on disk, with its header. */
export async function startNative(binary, { dataDir, kind, n, dim, queries, seed, k }) {
  const child = spawn(binary, [dataDir, kind, n, dim, queries, seed, k].map(String), {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error("the native bench exited early");
    return JSON.parse(value);
  };
  const header = await next();
  return {
    header,
    /** One round of every query; resolves with each query's milliseconds, measured natively. */
    round(mode) {
      child.stdin.write(`${mode}\n`);
      return next();
    },
    close() {
      child.stdin.end();
      return new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** The native scan as a contender whose rounds run in the child. */
export function nativeContender(native, mode) {
  return {
    name: mode === "int8" ? "native Rust int8" : `native Rust f32 (${native.header.kernels})`,
    build() {},
    round: () => native.round(mode),
    vectorBytes: () => (mode === "int8" ? native.header.int8Bytes : native.header.f32Bytes),
    recall: mode === "int8" ? native.header.int8Recall : 1,
  };
}

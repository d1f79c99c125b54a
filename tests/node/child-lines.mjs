// A child process's stdout, line by line: what the crash tests (sqlite-crash, import-kill) read from the
// process they kill.

/** Collects `child`'s stdout lines; `onLine(line, child)` sees each as it comes (to kill it at a point).
 * Resolves with `{lines, code, signal}` once the child has closed. */
export function childLines(child, onLine = () => {}) {
  const lines = [];
  let rest = "";
  child.stdout.on("data", (chunk) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop();
    for (const line of parts) {
      lines.push(line);
      onLine(line, child);
    }
  });
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ lines, code, signal })));
}

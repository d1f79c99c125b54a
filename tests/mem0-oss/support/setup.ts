// vitest setup file of the ported mem0 tests (vitest.config.mjs `setupFiles`), run before each test file:
// - the jest globals mem0's test files use, on top of vitest's jest-compatible ones (`globals: true`):
//   `jest.setTimeout` (file-wide test and hook timeout, as in jest), `jest.fn`, `jest.spyOn`, and jest's `%p`
//   (pretty-format) in `test.each` / `it.each` / `describe.each` titles, which vitest does not know;
// - console.warn routed through the logger stand-in (support/logger.ts) that memory.crud.test.ts spies on;
// - the file's scripted model server (support/models.ts) closed after its tests;
// - a home folder of its own (HOME, removed after its tests): memwasm/mem0, like mem0, keeps memories in
//   ~/.mem0/vector_store.db, and two files running at once, or one run after another, must not share it.
import { format as prettyFormat } from "@vitest/pretty-format";
import { afterAll, describe, it, test, vi } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "node:util";
import { logger } from "./logger";
import { models } from "./models";

const home = mkdtempSync(join(tmpdir(), "mem0-oss-home-"));
process.env.HOME = home;

const g = globalThis as Record<string, unknown>;

g.jest = {
  setTimeout(ms: number) {
    vi.setConfig({ testTimeout: ms, hookTimeout: ms });
  },
  fn: vi.fn,
  spyOn: vi.spyOn,
  clearAllMocks: vi.clearAllMocks,
  resetAllMocks: vi.resetAllMocks,
  restoreAllMocks: vi.restoreAllMocks,
};

/** A jest-each title: `%p` is pretty-format (min, maxDepth 1), `%#` the row's index, `%%` a percent sign, and
 * every other placeholder util.format's. */
function jestTitle(template: string, args: unknown[], index: number): string {
  let next = 0;
  return template.replace(/%[psdifjoO#%]/g, (placeholder) => {
    if (placeholder === "%%") return "%";
    if (placeholder === "%#") return String(index);
    if (next >= args.length) return placeholder;
    const arg = args[next++];
    return placeholder === "%p" ? prettyFormat(arg, { maxDepth: 1, min: true }) : format(placeholder, arg);
  });
}

type Each = (table: readonly unknown[]) => (title: string, fn: (...args: any[]) => unknown, timeout?: number) => void;

/** `api.each` that formats titles holding `%p` the way jest does and leaves every other title to vitest. */
function withPrettyPlaceholder(api: { each: unknown }, register: (title: string, fn: () => unknown, timeout?: number) => void) {
  const original = (api.each as Each).bind(api);
  api.each = (table: readonly unknown[]) => {
    const registerAll = original(table);
    return (title: string, fn: (...args: any[]) => unknown, timeout?: number) => {
      if (typeof title !== "string" || !title.includes("%p")) return registerAll(title, fn, timeout);
      table.forEach((row, index) => {
        const args = Array.isArray(row) ? row : [row];
        register(jestTitle(title, args, index), () => fn(...args), timeout);
      });
    };
  };
}

withPrettyPlaceholder(test, (title, fn, timeout) => test(title, fn, timeout));
if ((it as unknown) !== (test as unknown)) withPrettyPlaceholder(it, (title, fn, timeout) => it(title, fn, timeout));
withPrettyPlaceholder(describe, (title, fn) => describe(title, fn as () => void));

console.warn = (...args: unknown[]) => logger.warn(format(...args));

afterAll(async () => {
  await models.close();
  rmSync(home, { recursive: true, force: true });
});

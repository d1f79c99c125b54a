// The blocks of the manual (README.md and docs/*.md) marked `<!-- type-checked -->`, those that cannot run
// offline (a real provider key, a browser, a Worker, IndexedDB), and those marked `<!-- run by FILE -->` (that
// test runs them with the setup they need), type-check against the built package's types:
// each becomes a file of its own (`.mjs` checked as JavaScript, `.mts`), and `tsc --noEmit` (tests/types'
// TypeScript) checks them all. An error names the page and line. The names the blocks use without declaring
// them (the package's `Memory`, the app's `memory`, `config`, `env`, …) are declared in a prelude.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { pages, scriptBlocks } from "./docs-pages.mjs";

const run = promisify(execFile);
const TYPES = fileURLToPath(new URL("../types/", import.meta.url));
const TSC = join(TYPES, "node_modules", ".bin", "tsc");

const PRELUDE = `// What the manual's blocks take from the app around them.
declare const Memory: typeof import("memwasm").Memory;
declare const MemoryError: typeof import("memwasm").MemoryError;
declare const memory: import("memwasm").Memory;
declare const config: import("memwasm").MemoryConfig;
declare const env: { AI: any; MEMORY_KV: any; OPENAI_API_KEY: string };
declare const process: { env: Record<string, string | undefined> };
declare const engine: any;
declare const extractor: (texts: string[], options: object) => Promise<{ tolist(): number[][] }>;
declare const tiktoken: { encode(text: string): number[] };
declare const readme: string;
declare class MemoryClient { constructor(options: { apiKey: string; host: string }); }
declare module "node:fs/promises" {
  export function readFile(path: string): Promise<Uint8Array>;
  export function writeFile(path: string, data: Uint8Array | string): Promise<void>;
}
`;

test("docs: every block marked type-checked type-checks against the package's types", { timeout: 240_000 }, async (t) => {
  const marked = pages().flatMap((page) => scriptBlocks(page.text).filter((b) => b.marked || b.runBy).map((b) => ({ ...b, page: page.name })));
  assert.ok(marked.length >= 10, `the marked blocks are found (${marked.length})`);
  if (!existsSync(TSC)) await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: TYPES });
  // Beside tests/node_modules, so that "memwasm" resolves to the package.
  const dir = mkdtempSync(new URL(".docs-types-", import.meta.url).pathname);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const origin = new Map();
  const files = marked.map((block, index) => {
    const name = `block-${index}.${/^t/.test(block.lang) ? "mts" : "mjs"}`;
    // `export {}` makes every block a module, so their top-level names never clash.
    writeFileSync(join(dir, name), `${block.code}\nexport {};\n`);
    origin.set(name, block);
    return name;
  });
  writeFileSync(join(dir, "prelude.d.ts"), PRELUDE);
  const compilerOptions = {
    // JavaScript blocks need no annotations: a parameter without a type is fine, a wrong call is not.
    strict: true, noImplicitAny: false, noEmit: true, allowJs: true, checkJs: true, skipLibCheck: false,
    target: "es2022", lib: ["esnext", "dom"], module: "nodenext", moduleResolution: "nodenext", types: [],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["prelude.d.ts", ...files] }));
  const result = await run(TSC, ["-p", dir, "--pretty", "false"]).then(() => ({ stdout: "" }), (error) => error);
  // block-3.mjs(4,7): error TS2322: … → README.md:123: error TS2322: …
  const errors = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").filter(Boolean).map((line) => {
    const at = /(block-\d+\.m[jt]s)\((\d+),(\d+)\): (.*)$/.exec(line);
    if (!at) return line;
    const block = origin.get(at[1]);
    return `${block.page}:${block.line + Number(at[2])}:${at[3]}: ${at[4]}`;
  });
  assert.deepEqual(errors, [], `type errors in the manual's blocks:\n${errors.join("\n")}`);
});

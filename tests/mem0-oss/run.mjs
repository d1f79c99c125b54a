#!/usr/bin/env node
// Runs mem0's ported OSS tests and examples (vitest) and type-checks the ported files (tsc --noEmit), then
// prints the counts and, last, one line "N passed, M failed".
//
//   node run.mjs                 everything
//   node run.mjs v3/memory.add   only the test files whose path contains one of the given filters (no tsc)
//   node run.mjs --no-tsc        skip the type check
//   node run.mjs --json FILE     also write every test's outcome to FILE
//   node run.mjs --strict [v3]   mem0's v3 unit tests with nothing scripted for a call mem0 does not make
//                                (memwasm's decision call gets mem0's mock reply too) and known differences
//                                counted as failures; prints the failures and, last, "strict: N of M"
//
// known-differences.json lists the tests that cannot pass because memwasm differs from mem0 on purpose:
// {"<file> > <describe> > … > <test>": "<reason>"}. A listed test that fails counts as passed (as expected);
// a listed test that passes counts as failed (it no longer differs: remove it from the list); any other test
// that does not pass counts as failed. The type check counts as one test: it passes when every tsc error is
// listed as "tsc > <file>: TS<code>: <message>" and every listed one still shows.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const bin = (name) => join(ROOT, "node_modules", ".bin", name);

const args = process.argv.slice(2);
const strict = args.includes("--strict");
const noTsc = strict || args.includes("--no-tsc");
const jsonAt = args.indexOf("--json");
const jsonOut = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
/** The files of the strict figure: mem0's v3 unit tests (not the examples). */
const STRICT_FILES = ["add", "crud", "init", "validation", "llm-error"].map((name) => `v3/memory.${name}.test.ts`);
const given = args.filter((a, i) => !a.startsWith("--") && (jsonAt < 0 || i !== jsonAt + 1));
const filters = strict ? STRICT_FILES.filter((file) => given.length === 0 || given.some((f) => file.includes(f))) : given;
const typeCheck = !noTsc && filters.length === 0;

const pkgLink = join(ROOT, "node_modules", "memwasm");
if (!existsSync(pkgLink) || realpathSync(pkgLink) !== realpathSync(join(ROOT, "..", "..", "pkg"))) {
  console.error("tests/mem0-oss/node_modules/memwasm is not the repository's pkg/: run npm install in tests/mem0-oss");
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const known = JSON.parse(readFileSync(join(ROOT, "known-differences.json"), "utf8"));

// ------------------------------------------------------------------ vitest
console.log("=== vitest: mem0's tests and examples, ported (tests/mem0-oss/{v3,v2})");
const work = mkdtempSync(join(tmpdir(), "mem0-oss-"));
const report = join(work, "vitest.json");
const vitest = spawnSync(
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...filters],
  {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    // HOME: this run's folder, so nothing of the run reaches the real ~/.mem0 (each test file then makes its
    // own home folder: support/setup.ts).
    env: { ...process.env, HOME: work, FORCE_COLOR: "0", ...(strict ? { MEM0_OSS_STRICT: "1" } : {}) },
  },
);

/** Every test: {key, group, status: "passed" | "failed", message}. */
const tests = [];
let vitestBroken = false;
if (!existsSync(report)) {
  vitestBroken = true;
  console.error(`vitest wrote no report (exit ${vitest.status}${vitest.error ? `, ${vitest.error.message}` : ""})`);
} else {
  const data = JSON.parse(readFileSync(report, "utf8"));
  for (const file of data.testResults) {
    const rel = relative(ROOT, file.name);
    const group = `${rel.split("/")[0]} ${rel.endsWith("examples.test.ts") ? "examples" : "tests"}`;
    if (file.assertionResults.length === 0) {
      tests.push({ key: `${rel} (the file did not load)`, group, status: "failed", message: file.message });
      continue;
    }
    for (const t of file.assertionResults) {
      const key = [rel, ...t.ancestorTitles, t.title].join(" > ");
      // mem0's files skip nothing: a test that did not run (its beforeAll failed) did not pass.
      const message = t.failureMessages?.[0] ?? (t.status === "passed" ? "" : file.message || `status ${t.status}`);
      tests.push({ key, group, status: t.status === "passed" ? "passed" : "failed", message });
    }
  }
}
rmSync(work, { recursive: true, force: true });

if (strict) {
  const counted = tests.filter((t) => STRICT_FILES.some((file) => t.key.startsWith(`${file} `)));
  const failing = counted.filter((t) => t.status !== "passed");
  console.log(`\n=== strict: mem0's v3 unit tests, mem0's mock replies only, known differences count as failures`);
  for (const t of failing) {
    const why = known[t.key] ?? String(t.message).split("\n")[0].slice(0, 300);
    console.log(`  FAIL ${t.key}\n       ${t.key in known ? "[known difference] " : ""}${why}`);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ tests: counted }, null, 2) + "\n");
  console.log(`strict: ${counted.length - failing.length} of ${counted.length}`);
  process.exit(vitestBroken ? 1 : 0);
}

// ------------------------------------------------------------------ tsc
// One test. Each error is keyed "tsc > <file>: TS<code>: <message's first line>" (no line numbers); the check
// passes when every error is a known difference and every known tsc difference still shows.
let tsc = null; // {errors, unexpected: [line], expected: number, gone: [key]}
if (typeCheck) {
  console.log("\n=== tsc --noEmit -p tests/mem0-oss (the ported files against memwasm/mem0: pkg/mem0.d.ts over pkg/index.d.ts)");
  const run = spawnSync(bin("tsc"), ["--noEmit", "--pretty", "false", "-p", ROOT], { cwd: ROOT, encoding: "utf8" });
  const out = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  const errors = out.split("\n").filter((line) => /error TS\d+:/.test(line));
  tsc = { errors: errors.length, unexpected: [], expected: 0, gone: [] };
  if (run.status !== 0 && errors.length === 0) {
    console.log(out || `tsc failed (exit ${run.status})`);
    tsc.errors = 1;
    tsc.unexpected.push(out.split("\n")[0] || `tsc exited with ${run.status}`);
  }
  const shown = new Set();
  for (const line of errors) {
    const m = /^(.*?)\(\d+,\d+\): error (TS\d+): (.*)$/.exec(line);
    const key = m ? `tsc > ${m[1]}: ${m[2]}: ${m[3]}` : `tsc > ${line}`;
    shown.add(key);
    if (key in known) {
      tsc.expected++;
      console.log(`${line}   [known difference]`);
    } else {
      tsc.unexpected.push(line);
      console.log(line);
    }
  }
  tsc.gone = Object.keys(known).filter((key) => key.startsWith("tsc > ") && !shown.has(key));
  console.log(`tsc: ${tsc.errors} error(s), ${tsc.expected} of them known differences`);
}

// ------------------------------------------------------------------ counting
const groups = new Map();
const group = (name) => {
  if (!groups.has(name)) groups.set(name, { passed: 0, failed: 0, expected: 0 });
  return groups.get(name);
};
const noLongerDiffers = [];
const failures = [];
const seen = new Set();
for (const t of tests) {
  const g = group(t.group);
  seen.add(t.key);
  if (t.key in known) {
    if (t.status === "failed") {
      g.passed++;
      g.expected++;
    } else {
      g.failed++;
      noLongerDiffers.push(t.key);
    }
  } else if (t.status === "passed") g.passed++;
  else {
    g.failed++;
    failures.push(t);
  }
}
const stale =
  filters.length === 0 ? Object.keys(known).filter((key) => !key.startsWith("tsc > ") && !seen.has(key)) : [];

console.log("\n=== mem0-oss summary");
for (const name of [...groups.keys()].sort((a, b) => b.localeCompare(a))) {
  const g = groups.get(name);
  const extra = g.expected ? ` (${g.expected} of them known differences, failing as expected)` : "";
  console.log(`  ${name.padEnd(12)} ${g.passed} passed, ${g.failed} failed${extra}`);
}
const tscPassed = tsc !== null && tsc.unexpected.length === 0 && tsc.gone.length === 0;
if (tsc !== null) {
  const detail = `${tsc.errors} error(s), ${tsc.unexpected.length} not known differences`;
  console.log(`  ${"tsc".padEnd(12)} ${tscPassed ? "passed" : "failed"}: ${detail}`);
}
if (failures.length) {
  console.log(`\nfailing (${failures.length}):`);
  for (const t of failures) console.log(`  FAIL ${t.key}\n       ${String(t.message).split("\n")[0].slice(0, 300)}`);
}
for (const key of noLongerDiffers) console.log(`  FAIL ${key}\n       passes now: it no longer differs, remove it from known-differences.json`);
for (const key of tsc?.gone ?? []) console.log(`  FAIL ${key}\n       no longer shows: remove it from known-differences.json`);
for (const key of stale) console.log(`  FAIL known-differences.json lists ${JSON.stringify(key)}, which is no test: fix or remove it`);

if (jsonOut) {
  writeFileSync(jsonOut, JSON.stringify({ tests, tsc, knownDifferences: known }, null, 2) + "\n");
}

let passed = [...groups.values()].reduce((s, g) => s + g.passed, 0);
let failed = [...groups.values()].reduce((s, g) => s + g.failed, 0) + stale.length + (vitestBroken ? 1 : 0);
if (tsc !== null) tscPassed ? passed++ : failed++;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);

// add() quality, fast pipeline against exact: does the update decision get to see the memory that must be
// updated, deleted or recognised as a duplicate? For each scenario of bench/quality/scenarios.json and each
// pipeline, a fresh Memory with the on-device all-MiniLM-L6-v2 embedder stores the scenario's existing
// memories verbatim, then add()s its conversation; a scripted LLM returns the scenario's facts and records
// the memories the decision call is shown. Figure: of the scenarios where the exact path shows the target,
// the share where the fast path shows it too (target ≥ 0.95).
//
// Usage: node bench/add-quality.mjs [--json] [--verbose]
//   --json     one JSON object on stdout (bench/run.mjs reads it)
//   --verbose  every scenario's row, and what each pipeline showed for the misses
// Needs the weights (bash scripts/setup.sh minilm) and the built package (bash scripts/build-pkg.sh).
import { difficulty, loadScenarios, pipelineOption, runScenario, score, weightsMissing } from "./lib/add-quality.mjs";

const args = new Set(process.argv.slice(2));
const say = (text) => process.stderr.write(`[add-quality] ${text}\n`);

const missing = weightsMissing();
if (missing) {
  say(missing);
  process.exit(2);
}
const scenarios = loadScenarios();
const hasPipeline = pipelineOption();
if (!hasPipeline) say("this pkg/ does not take the `pipeline` option: the exact (default) path only, fast not measured");

const started = Date.now();
const rows = [];
for (const scenario of scenarios) {
  const exact = await runScenario(scenario, hasPipeline ? "exact" : null);
  const fast = hasPipeline ? await runScenario(scenario, "fast") : null;
  rows.push({ id: scenario.id, kind: scenario.kind, target: scenario.target, exact, fast, ...(await difficulty(scenario)) });
}
const figures = { ...score(rows), pipelineOption: hasPipeline, seconds: (Date.now() - started) / 1000 };
const byKind = Object.fromEntries(
  ["update", "duplicate", "contradiction"].map((kind) => [kind, score(rows.filter((r) => r.kind === kind))]),
);

if (args.has("--json")) {
  const perScenario = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    targetRank: r.rank,
    sharesWord: r.sharesWord,
    exact: { hit: r.exact.hit, shown: r.exact.shown.length },
    fast: r.fast && { hit: r.fast.hit, shown: r.fast.shown.length },
  }));
  process.stdout.write(JSON.stringify({ ...figures, byKind, perScenario }) + "\n");
  process.exit(0);
}

const mark = (x) => (x == null ? "–" : x.hit ? "yes" : "NO");
const ratio = (f) => (f.ratio == null ? "not measured" : `${f.both}/${f.exactHits} = ${f.ratio.toFixed(3)}`);
const n = (x, digits = 1) => (x == null ? "–" : x.toFixed(digits));
const lines = [];
if (args.has("--verbose")) {
  lines.push("| scenario | kind | target's rank | shares a word | exact shows target | shown | fast shows target | shown |");
  lines.push("|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    lines.push(`| ${r.id} | ${r.kind} | ${r.rank} | ${r.sharesWord ? "yes" : "no"} | ${mark(r.exact)} | ${r.exact.shown.length} | ${mark(r.fast)} | ${r.fast?.shown.length ?? "–"} |`);
  }
  lines.push("");
  for (const r of rows.filter((r) => !r.exact.hit || (r.fast && !r.fast.hit))) {
    lines.push(`${r.id}: target ${JSON.stringify(r.target)}`);
    lines.push(`  exact showed ${JSON.stringify(r.exact.shown)}`);
    if (r.fast) lines.push(`  fast showed  ${JSON.stringify(r.fast.shown)}`);
  }
  lines.push("");
}
lines.push(
  "| scenarios | count | exact shows target | fast shows target | fast ÷ exact (both ÷ exact) | mean shown, exact | mean shown, fast |",
  "|---|---|---|---|---|---|---|",
);
for (const [name, f] of [...Object.entries(byKind), ["all", figures]]) {
  lines.push(
    `| ${name} | ${f.scenarios} | ${f.exactHits} | ${f.fastHits ?? "–"} | ${ratio(f)} | ${n(f.meanShown.exact)} | ${n(f.meanShown.fast)} |`,
  );
}
const { first, upToFive, lower } = figures.targetRank;
lines.push(
  "",
  `Difficulty: the target is a fact's nearest memory in ${first} scenarios, 2nd–5th in ${upToFive}, lower in ${lower}; ` +
    `it shares no content word with any fact in ${figures.noSharedWord}.`,
  `Exact misses the target in ${figures.exactMisses} of ${figures.scenarios}; fast shows a target exact misses in ${figures.fastOnly ?? "–"}.`,
  `Target: fast shows it in ≥ 95% of the scenarios where exact does: ${figures.ratio == null ? "not measured" : figures.ratio >= 0.95 ? "met" : "NOT met"} (${(figures.seconds).toFixed(0)} s).`,
);
process.stdout.write(lines.join("\n") + "\n");

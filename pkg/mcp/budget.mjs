// The model-call budget of one stdin line: what each tool can cost in model calls (LLM and embedder
// requests), from costs.json (the Worker's /mcp reads the same table). A call that would cost more than
// the budget is refused before it runs. The costs count the requests of a call that succeeds; retries of a
// failed request and the fallback of a failed batch embedding (one request per text) come on top.

import { readFileSync } from "node:fs";

const COSTS = JSON.parse(readFileSync(new URL("./costs.json", import.meta.url), "utf8"));

/** Most model calls one call may cause. */
export const MODEL_CALL_BUDGET = COSTS.budget;

const items = (value, path) =>
  path.length === 0 ? 1 : Array.isArray(value?.[path[0]]) ? value[path[0]].reduce((n, item) => n + items(item, path.slice(1)), 0) : 0;

/** The model calls a call of `tool` with (checked) `args` can make: its `calls`, plus one per item at its `each` path. */
export function costOf(tool, args) {
  const rule = COSTS.tools[tool];
  if (!rule) return 0;
  return (rule.calls ?? 0) + (rule.each ? items(args, rule.each) : 0);
}

/** Why a call of `tool` with `args` is refused, or null when it fits the budget. */
export function overBudget(tool, args) {
  const cost = costOf(tool, args);
  if (cost <= MODEL_CALL_BUDGET) return null;
  return `${tool} would make ${cost} model calls; one call may make at most ${MODEL_CALL_BUDGET} model calls: split it into smaller calls`;
}

// The pieces of bench/add-quality.mjs: the scenario set, a scripted LLM that records what the update decision
// is shown, and one add() per scenario and pipeline with the on-device all-MiniLM-L6-v2 embedder.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

import { Memory } from "../../pkg/index.node.mjs";
import { withLocalEmbedder } from "../../pkg/local-embedder/provider.mjs";

export const MODEL_DIR = process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
export const WEIGHTS = join(MODEL_DIR, "model.safetensors");
export const TOKENIZER = join(MODEL_DIR, "tokenizer.json");
export const SCENARIOS = new URL("../quality/scenarios.json", import.meta.url);
const EXTRACT = "You are an expert at extracting structured, atomic facts";
const DECIDE = "You are a memory management system";
const KINDS = ["update", "duplicate", "contradiction"];

/** Why the weights cannot be used, or null when they are there. */
export function weightsMissing() {
  const missing = [WEIGHTS, TOKENIZER].filter((path) => !existsSync(path));
  return missing.length ? `all-MiniLM-L6-v2 weights missing (${missing.join(", ")}): run \`bash scripts/setup.sh minilm\`` : null;
}

/** The scenarios, checked: a malformed one throws, naming it. */
export function loadScenarios() {
  const scenarios = JSON.parse(readFileSync(SCENARIOS, "utf8"));
  const ids = new Set();
  for (const s of scenarios) {
    const bad = (why) => {
      throw new Error(`scenarios.json: ${s.id ?? "(no id)"}: ${why}`);
    };
    if (!s.id || ids.has(s.id)) bad("missing or repeated id");
    ids.add(s.id);
    if (!KINDS.includes(s.kind)) bad(`kind must be one of ${KINDS.join(", ")}`);
    if (!(s.existing?.length >= 8 && s.existing.length <= 25)) bad(`${s.existing?.length} existing memories, not 8–25`);
    if (new Set(s.existing).size !== s.existing.length) bad("repeated existing memory");
    if (!s.existing.includes(s.target)) bad("target is not one of the existing memories");
    if (!(s.conversation?.length >= 1 && s.conversation.length <= 6)) bad("conversation must have 1–6 messages");
    if (!s.conversation.every((m) => ["user", "assistant"].includes(m.role) && m.content?.trim())) bad("bad message");
    if (!(s.facts?.length >= 1 && s.facts.length <= 6)) bad("facts must have 1–6 entries");
    // A fact equal to a stored text is an exact duplicate: add() settles it without the decision call.
    if (s.facts.some((f) => s.existing.includes(f))) bad("a fact repeats an existing memory verbatim");
  }
  return scenarios;
}

/** The texts of the "Existing memories" JSON array in a decision prompt's user message. */
function shownIn(user) {
  const start = user.indexOf("Existing memories:\n");
  const end = user.indexOf("\n\nNew facts:");
  if (start < 0 || end < 0) throw new Error(`unexpected decision prompt: ${user.slice(0, 200)}`);
  return JSON.parse(user.slice(start + "Existing memories:\n".length, end));
}

/**
 * A JS-callback LLM scripted for one add(): `{facts}` for the extraction call; for each decision call it
 * records the memories shown (into `calls`) and answers NONE for every one of them, so nothing changes.
 */
function scriptedLlm(facts, calls) {
  const generate = async ({ system, user }) => {
    if (system.includes(EXTRACT)) return JSON.stringify({ facts });
    if (system.includes(DECIDE)) {
      const shown = shownIn(user);
      calls.decisions.push(shown.map((m) => m.text));
      return JSON.stringify({ memory: shown.map((m) => ({ id: m.id, text: m.text, event: "NONE" })) });
    }
    throw new Error(`unexpected prompt: ${system.slice(0, 80)}`);
  };
  return { provider: "custom", generate };
}

const LOCAL = { provider: "local", config: { model: "all-MiniLM-L6-v2", weights: WEIGHTS, tokenizer: TOKENIZER } };
let model; // one loaded MiniLM for every Memory (provider "local" would load one per instance)
const loadModel = async () =>
  (model ??= await (await import("../../pkg/local-embedder/index.node.mjs")).createLocalEmbedder(LOCAL.config));
let embeddings = []; // the texts of each embedding request, for the current scenario

/**
 * `config` with `embedder: {provider: "local"}` rewritten by the package's own adapter (what `new Memory`
 * does), its module loader hooked so every instance shares one loaded model and each request is recorded.
 */
function withRecordingLocalEmbedder(config) {
  const load = async () => {
    const loaded = await loadModel();
    const embed = (texts) => (embeddings.push([...texts]), loaded.embed(texts));
    return { createLocalEmbedder: async () => ({ embed }) };
  };
  return withLocalEmbedder({ ...config, embedder: LOCAL }, load);
}

/** Whether `new Memory` takes `pipeline` (an older pkg/ rejects it as an unknown key). */
export function pipelineOption() {
  try {
    new Memory({ llm: { provider: "none" }, embedder: { provider: "none" }, pipeline: "fast" });
    return true;
  } catch (error) {
    if (/pipeline/.test(error.message)) return false;
    throw error;
  }
}

/**
 * One scenario through one pipeline: a fresh Memory, the existing memories stored verbatim, then add() of
 * the conversation. `pipeline` null leaves the option out (the library's default). Returns what the
 * decision was shown (the union over its calls) and whether the target was among it.
 */
export async function runScenario(scenario, pipeline) {
  const calls = { decisions: [] };
  const config = { llm: scriptedLlm(scenario.facts, calls) };
  if (pipeline) config.pipeline = pipeline;
  const memory = new Memory(withRecordingLocalEmbedder(config));
  const userId = `user-${scenario.id}`;
  await memory.add(scenario.existing.map((content) => ({ role: "user", content })), { userId, infer: false });
  embeddings = [];
  const result = await memory.add(scenario.conversation, { userId });
  const fail = (why) => {
    throw new Error(`${scenario.id} (${pipeline ?? "default"}): ${why}`);
  };
  if (result.warnings.length) fail(JSON.stringify(result.warnings));
  if (calls.decisions.length === 0) fail("no decision call");
  // The fast path embeds the conversation's sentences; without that request it fell back to the exact path.
  const embedsConversation = embeddings.some((texts) => texts.some((t) => !scenario.facts.includes(t)));
  if (pipeline === "fast" && !embedsConversation) fail("no embedding request for the conversation: the fast path fell back");
  if (pipeline === "exact" && embedsConversation) fail("the exact path embedded more than the facts");
  const shown = [...new Set(calls.decisions.flat())];
  return { shown, hit: shown.includes(scenario.target), decisionCalls: calls.decisions.length };
}

const STOP = new Set("a an the is are was were be been to of and or in on at for with by as it its their they them user user's s".split(" "));
const words = (text) => new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2 && !STOP.has(w)));

/**
 * How hard a scenario is for retrieval by facts: the target's best rank (1 = nearest) among the existing
 * memories by cosine to any fact, and whether it shares a content word with any fact (else BM25 misses it).
 */
export async function difficulty(scenario) {
  const loaded = await loadModel();
  const [memories, facts] = [await loaded.embed(scenario.existing), await loaded.embed(scenario.facts)];
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  const target = scenario.existing.indexOf(scenario.target);
  const rank = Math.min(...facts.map((f) => {
    const sims = memories.map((m) => dot(f, m));
    return sims.filter((x) => x > sims[target]).length + 1;
  }));
  const targetWords = words(scenario.target);
  const sharesWord = scenario.facts.some((f) => [...words(f)].some((w) => targetWords.has(w)));
  return { rank, sharesWord };
}

/** The figures over every scenario's results for the exact and the fast pipeline. */
export function score(rows) {
  const count = (pick) => rows.filter(pick).length;
  const mean = (key) => rows.reduce((sum, r) => sum + (r[key]?.shown.length ?? 0), 0) / rows.length;
  const exactHits = count((r) => r.exact.hit);
  const both = count((r) => r.exact.hit && r.fast?.hit);
  const fastMeasured = rows.every((r) => r.fast);
  return {
    scenarios: rows.length,
    exactHits,
    exactMisses: rows.length - exactHits,
    fastHits: fastMeasured ? count((r) => r.fast.hit) : null,
    fastOnly: fastMeasured ? count((r) => !r.exact.hit && r.fast.hit) : null,
    both: fastMeasured ? both : null,
    ratio: fastMeasured && exactHits ? both / exactHits : null,
    meanShown: { exact: mean("exact"), fast: fastMeasured ? mean("fast") : null },
    targetRank: { first: count((r) => r.rank === 1), upToFive: count((r) => r.rank > 1 && r.rank <= 5), lower: count((r) => r.rank > 5) },
    noSharedWord: count((r) => !r.sharesWord),
  };
}

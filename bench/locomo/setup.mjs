// What the LOCOMO scripts (run.mjs, tune-neighbours.mjs) share: their command-line options, the MiniLM
// weights (exiting with a message when they or the conversations are missing) and batched embedding.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
/** The conversations' folder: --data DIR, else ../shared/bench-data/locomo beside the repository. */
export const dataDir = option("--data", join(here, "..", "..", "..", "shared", "bench-data", "locomo"));
/** The on-device embedder's worker threads (Node): --threads N, else as many as there are cores, at most 4. */
export const threads = Number(option("--threads", Math.min(availableParallelism(), 4)));
const minilm = process.env.MINILM_DIR ?? join(homedir(), ".cache", "memwasm", "minilm");
export const weights = join(minilm, "model.safetensors");
export const tokenizer = join(minilm, "tokenizer.json");
if (!existsSync(weights) || !existsSync(tokenizer)) {
  process.stderr.write(`the MiniLM weights are not in ${minilm} (bash scripts/setup.sh minilm fetches them)\n`);
  process.exit(2);
}
if (!existsSync(dataDir)) {
  process.stderr.write(`no LOCOMO conversations in ${dataDir} (--data DIR)\n`);
  process.exit(2);
}

/** The conversation files' names, sorted. */
export const files = readdirSync(dataDir).filter((f) => f.endsWith(".json")).sort();
/** A conversation file's parsed JSON. */
export const readConversation = (file) => JSON.parse(readFileSync(join(dataDir, file), "utf8"));
/** Progress on stderr. */
export const say = (text) => process.stderr.write(`[locomo] ${text}\n`);

/** The unit vectors of `texts`, embedded 64 at a time. */
export async function embedAll(embedder, texts) {
  const vectors = [];
  for (let i = 0; i < texts.length; i += 64) vectors.push(...(await embedder.embed(texts.slice(i, i + 64))));
  return vectors;
}

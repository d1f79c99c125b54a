// Shared by the tests here: where the weights are (MINILM_DIR, filled by scripts/setup.d/65-minilm.sh),
// the numpy reference (reference.json, written by reference.py) and a cosine.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const MODEL_DIR = process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
export const WEIGHTS = join(MODEL_DIR, "model.safetensors");
export const TOKENIZER = join(MODEL_DIR, "tokenizer.json");

/** `{text, ids, embedding}` rows of the reference. */
export const reference = () => JSON.parse(readFileSync(join(MODEL_DIR, "reference.json"), "utf8")).rows;

export function cosine(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) (dot += a[i] * b[i]), (na += a[i] * a[i]), (nb += b[i] * b[i]);
  return dot / Math.max(Math.sqrt(na * nb), 1e-12);
}

/** The lowest cosine between `vectors` and the reference rows, with its text. */
export function worst(rows, vectors) {
  return rows.reduce((w, row, i) => {
    const c = cosine(row.embedding, vectors[i]);
    return c < w.cosine ? { cosine: c, text: row.text } : w;
  }, { cosine: Infinity, text: "" });
}

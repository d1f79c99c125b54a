// Shared by the tests here: where the weights are (MINILM_DIR, filled by scripts/setup.d/65-minilm.sh; the
// cross-encoder's in CROSS_ENCODER_DIR, by 66-cross-encoder.sh), the numpy references (reference.json and
// cross-reference.json, written by reference.py and cross_reference.py), a cosine and one shared assertion.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const MODEL_DIR = process.env.MINILM_DIR ?? join(homedir(), ".cache/memwasm/minilm");
export const WEIGHTS = join(MODEL_DIR, "model.safetensors");
export const TOKENIZER = join(MODEL_DIR, "tokenizer.json");

export const CROSS_ENCODER_DIR = process.env.CROSS_ENCODER_DIR ?? join(homedir(), ".cache/memwasm/cross-encoder");
export const RERANKER = { weights: join(CROSS_ENCODER_DIR, "model.safetensors"), tokenizer: join(CROSS_ENCODER_DIR, "tokenizer.json") };

/** `{query, document, ids, types, logit}` rows of the cross-encoder's reference. */
export const crossReference = () => JSON.parse(readFileSync(join(CROSS_ENCODER_DIR, "cross-reference.json"), "utf8")).rows;

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

/** Asserts that each of five texts of one token length embeds to the same floats alone as in a batch of all
 *  five: the batch's rows go through the kernels grouped otherwise than one text's rows. */
export async function assertAloneAsInBatch(embedder) {
  const texts = ["user likes red", "user likes blue", "user likes gold", "user likes green", "user likes black"];
  const lengths = await Promise.all(texts.map(async (text) => (await embedder.tokenIds(text)).length));
  assert.equal(new Set(lengths).size, 1, `token lengths ${lengths}`);
  const batch = await embedder.embed(texts);
  for (const [i, text] of texts.entries()) {
    const [alone] = await embedder.embed([text]);
    assert.ok(alone.every((x, j) => Object.is(x, batch[i][j])), text);
  }
}

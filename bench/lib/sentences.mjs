// The embedder benches' sentences: the 10–200-character ones of tests/local-embedder/sentences.json (104).
import { readFileSync } from "node:fs";

export function benchSentences() {
  const sentences = JSON.parse(readFileSync(new URL("../../tests/local-embedder/sentences.json", import.meta.url), "utf8"));
  return sentences.filter((t) => [...t].length >= 10 && [...t].length <= 200);
}

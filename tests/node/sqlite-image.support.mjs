// Shared by the open-image tests and their child process: a config with no model host (a custom embedder
// whose vector is derived from the text) over a SQLite file.
import { sqliteStorage } from "./sqlite-support.mjs";

/** An 8-d vector derived from `text`. */
export function textVector(text) {
  const vector = Array.from({ length: 8 }, (_, d) => ((text.length * 7 + d * 13 + text.charCodeAt(d % text.length)) % 17) - 8);
  return vector.some((x) => x !== 0) ? vector : [1, 0, 0, 0, 0, 0, 0, 0];
}

/** Memory config over the SQLite file at `path`, with the driver `driver` (the first available by default). */
export const imageConfig = (path, driver) => ({
  llm: { provider: "none" },
  embedder: { provider: "custom", dimensions: 8, embed: async (texts) => texts.map(textVector) },
  storage: sqliteStorage(path, driver),
});

// A user's Node script that keeps memories in a SQLite file (better-sqlite3 on Node 20, node:sqlite on newer
// Node): the first run stores them, a later run (a new process) finds them. Prints JSON.
import { Memory } from "memwasm";

const path = process.argv[2];
const memory = await Memory.open({
  llm: { provider: "none" },
  embedder: { provider: "none" },
  storage: { provider: "sqlite", config: { path } },
});
const scope = { userId: "u" };
const before = (await memory.getAll(scope)).results.length;
if (before === 0) {
  for (const fact of ["User likes Python", "User lives in Berlin"]) await memory.add(fact, { ...scope, infer: false });
}
const found = await memory.search("Berlin", { ...scope, limit: 1 });
memory.close();
console.log(JSON.stringify({ before, top: found.results[0]?.memory }));

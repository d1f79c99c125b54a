// Memories that outlive the process: Node keeps them in a SQLite file. Run it twice:
//   node examples/node-sqlite.mjs [file]   # the first run stores three memories (default ./memory.db)
//   node examples/node-sqlite.mjs [file]   # the next run, a new process, finds them again
// Node 22.5 and later have SQLite built in (node:sqlite); on Node 20, `npm install better-sqlite3` first.
// No key and no network: keyword search only. Give an embedder (see the Quickstart) to search by meaning,
// and an LLM to have add() pull facts out of conversations.
import { Memory } from "../pkg/index.node.mjs";

const path = process.argv[2] ?? "memory.db";
const memory = await Memory.open({
  llm: { provider: "none" },
  embedder: { provider: "none" },
  storage: { provider: "sqlite", config: { path } },
});
const alice = { userId: "alice" };

const { results } = await memory.getAll(alice);
if (results.length === 0) {
  for (const note of ["Alice is vegetarian", "Alice moved to Lisbon in May", "Alice drinks green tea every morning"]) {
    await memory.add(note, { ...alice, infer: false });
  }
  console.log(`stored 3 memories in ${path}; run me again to find them`);
} else {
  const found = await memory.search("green tea", alice);
  console.log(`${results.length} memories in ${path}, kept from an earlier run; "green tea" finds:`);
  for (const hit of found.results) console.log(`  ${hit.memory}`);
}
memory.close();

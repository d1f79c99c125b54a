// mem0's Node quickstart (mem0ai/mem0 docs/open-source/node-quickstart.mdx at 8d5b7865b: "Initialize the
// client", "Add a memory", "Search memories"), with only the import changed from "mem0ai/oss". Run by
// mem0-persistence.test.mjs as `node mem0-quickstart.child.mjs add`, then `… search` in a second process; the
// models are OPENAI_BASE_URL / OPENAI_API_KEY (the scripted server) and the home folder is HOME (a temp one).
// The search step prints its results as JSON (the quickstart's console.log), then the getAll of the same user.
import { Memory } from "memwasm/mem0";

const memory = new Memory();

if (process.argv[2] === "add") {
  const messages = [
    { role: "user", content: "I'm planning to watch a movie tonight. Any recommendations?" },
    { role: "assistant", content: "How about thriller movies? They can be quite engaging." },
    { role: "user", content: "I'm not a big fan of thriller movies but I love sci-fi movies." },
    { role: "assistant", content: "Got it! I'll avoid thriller recommendations and suggest sci-fi movies in the future." }
  ];

  await memory.add(messages, { userId: "alice", metadata: { category: "movie_recommendations" } });
} else {
  const results = await memory.search("What do you know about me?", { filters: { user_id: "alice" } });
  console.log(JSON.stringify(results));
  console.log(JSON.stringify(await memory.getAll({ filters: { user_id: "alice" } })));
}

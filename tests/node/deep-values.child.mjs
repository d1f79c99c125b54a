// Run by deep-values.test.mjs in a process of its own: sends 10,000-deep and self-containing values through
// every entry point of the package, then makes a fresh Memory in the same process and uses it. Prints one
// JSON line: what each call did, and what was thrown outside a promise.
import { Memory } from "memwasm";
import { startScriptedServer } from "../support/scripted-server.mjs";

const uncaught = [];
process.on("uncaughtException", (error) => uncaught.push(String(error)));
process.on("unhandledRejection", (error) => uncaught.push(String(error)));

const server = await startScriptedServer({ port: 0 });
const config = () => ({
  llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "m" } },
  embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "k", model: "e", dimensions: 8 } },
  retry: { baseDelayMs: 1, maxDelayMs: 2 },
});

function deepObject(levels) {
  let value = { leaf: 1 };
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}
function deepArray(levels) {
  let value = [1];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}
const cyclicObject = () => {
  const value = { name: "loop" };
  value.self = value;
  return value;
};
const cyclicArray = () => {
  const value = [1];
  value.push(value);
  return value;
};
const VALUES = {
  "10,000-deep object": () => deepObject(10_000),
  "10,000-deep array": () => deepArray(10_000),
  "cyclic object": cyclicObject,
  "cyclic array": cyclicArray,
};

/** Each entry point, with `bad` placed where an app passes an object. */
const ENTRY_POINTS = {
  "new Memory(config)": (m, bad) => new Memory({ ...config(), extra: bad }),
  "Memory.open(config)": (m, bad) => Memory.open({ ...config(), extra: bad }),
  "add(messages)": (m, bad) => m.add(bad, { userId: "u" }),
  "add(message content)": (m, bad) => m.add([{ role: "user", content: bad }], { userId: "u" }),
  "add(metadata)": (m, bad) => m.add("x", { userId: "u", metadata: bad }),
  "add(infer: false, metadata)": (m, bad) => m.add("x", { userId: "u", infer: false, metadata: bad }),
  "store(metadata)": (m, bad) => m.store("k", "v", { userId: "u", metadata: bad }),
  "update(metadata)": (m, bad) => m.update("id", { text: "t", metadata: bad }),
  "search(filters)": (m, bad) => m.search("q", { userId: "u", filters: bad }),
  "search({embedding})": (m, bad) => m.search({ embedding: bad }, { userId: "u" }),
  "getAll(filters)": (m, bad) => m.getAll({ userId: "u", filters: bad }),
  "deleteAll(filters)": (m, bad) => m.deleteAll({ userId: "u", filters: bad }),
  "delete(options)": (m, bad) => m.delete("id", bad),
  "recall(filters)": (m, bad) => m.recall("q", { userId: "u", filters: bad }),
  "exportMemories(scope)": (m, bad) => m.exportMemories(bad),
  "stats(scope)": (m, bad) => m.stats(bad),
  "decay(options)": (m, bad) => m.decay(bad),
  "purgeExpired(scope)": (m, bad) => m.purgeExpired(bad),
  "reflections(scope)": (m, bad) => m.reflections(bad),
  "share(options)": (m, bad) => m.share(bad),
  "addMessage(message)": (m, bad) => m.addMessage(bad),
  "addMessage(metadata)": (m, bad) =>
    m.addMessage({ messageId: "m1", userId: "u", groupId: "g", content: "hi", metadata: bad }),
  "saveConversationMeta(meta)": (m, bad) => m.saveConversationMeta(bad),
  "updateConversationMeta(patch)": (m, bad) => m.updateConversationMeta("g", bad),
  "deleteMemories(filter)": (m, bad) => m.deleteMemories(bad),
  "compress(options)": (m, bad) => m.compress(bad),
  "ingest(options)": (m, bad) => m.ingest("some text", bad),
  "getEntities(scope)": (m, bad) => m.getEntities(bad),
  "getRelations(scope)": (m, bad) => m.getRelations(bad),
  "flush(turns)": (m, bad) => m.flush(bad, { userId: "u" }),
  "flush(scope)": (m, bad) => m.flush("hi", bad),
  "context(options)": (m, bad) => m.context(bad),
  "context().push(turns)": (m, bad) => m.context({ userId: "u", maxTokens: 500 }).push(bad),
  "journal(options)": (m, bad) => m.journal(bad),
  "journals(options)": (m, bad) => m.journals(bad),
  "dream(options)": (m, bad) => m.dream(bad),
  "coreProfile(scope)": (m, bad) => m.coreProfile(bad),
  "dreamDiary(scope)": (m, bad) => m.dreamDiary(bad),
  "formatForInjection(options)": (m, bad) => m.formatForInjection(bad),
  "tools(scope)": (m, bad) => m.tools(bad),
  "tools().runTool(args)": (m, bad) => m.tools({ userId: "u" }).runTool("search_memory", bad),
};

/** `rejected CODE` / `threw CODE` for a coded error, else what happened. */
async function outcome(call) {
  let result;
  try {
    result = call();
  } catch (error) {
    return `threw ${error?.code ?? String(error)}`;
  }
  let timer;
  const never = new Promise((resolve) => (timer = setTimeout(() => resolve("never settled"), 5_000)));
  const settled = Promise.resolve(result).then(
    () => "resolved",
    (error) => `rejected ${error?.code ?? String(error)}`,
  );
  return Promise.race([settled, never]).finally(() => clearTimeout(timer));
}

const calls = {};
const memory = new Memory(config());
for (const [valueName, make] of Object.entries(VALUES)) {
  for (const [entry, call] of Object.entries(ENTRY_POINTS)) {
    calls[`${entry} with a ${valueName}`] = await outcome(() => call(memory, make()));
  }
}
await new Promise((resolve) => setTimeout(resolve, 50));

// The process and the module still work: a fresh memory stores and finds, and so does the first one.
const after = {};
for (const [name, mem] of [["fresh", new Memory({ ...config(), pipeline: "exact" })], ["first", memory]]) {
  await mem.add("User likes green tea", { userId: "after", infer: false });
  const found = await mem.search("green tea", { userId: "after", method: "keyword" });
  after[name] = found.results.map((r) => r.memory);
}
await server.close();
console.log(JSON.stringify({ calls, uncaught, after, requests: server.count("chat") }));

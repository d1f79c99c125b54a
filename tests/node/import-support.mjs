// Shared setup of the import tests (import-*.test.mjs): the fixtures of tests/fixtures/import, the facts the
// scripted LLM finds in them (an extraction that answers from the conversation's words, a decision that adds
// each new fact), and what two memories' contents are compared by.
import { readFileSync } from "node:fs";
import { DECIDE, EXTRACT, decisionPayload } from "./helpers.mjs";

const FIXTURES = new URL("../fixtures/import/", import.meta.url);
export const fixturePath = (name) => new URL(name, FIXTURES).pathname;
export const fixture = (name) => readFileSync(new URL(name, FIXTURES), "utf8");

/** Words of the fixtures' user messages and the fact each one gives. */
export const FACTS = [
  ["a trip to Lisbon in May", "Plans a trip to Lisbon in May"],
  ["I am vegan", "Is vegan"],
  ["work from home as a translator", "Works from home as a translator"],
  ["I grow tomatoes on my balcony", "Grows tomatoes on a balcony in Berlin"],
  ["My cat Miso", "Has a cat called Miso"],
];

/** Scripts the extraction (the facts whose words the prompt holds) and the decision (ADD each new fact, NONE
 * for one already stored), each with `delayMs` when given. */
export function scriptFacts(server, { delayMs } = {}) {
  const extra = delayMs ? { delayMs } : {};
  server.script([
    { kind: "chat", match: [EXTRACT], reply: ({ text }) => ({ facts: FACTS.filter(([words]) => text.includes(words)).map(([, fact]) => fact) }), ...extra },
    { kind: "chat", match: [DECIDE], reply: ({ body }) => decide(body), ...extra },
  ]);
}

function decide(body) {
  const { existing, facts } = decisionPayload({ body });
  return {
    memory: facts.map((fact) => {
      const text = typeof fact === "string" ? fact : fact.text;
      const old = existing.find((m) => m.text === text);
      return old ? { id: old.id, text, event: "NONE" } : { text, event: "ADD" };
    }),
  };
}

/** A memory's contents without ids and write times: text, event time and sources' message ids, by text. */
export async function contents(memory, scope) {
  const all = (await memory.getAll({ ...scope, limit: 1000 })).results;
  const out = [];
  for (const m of all) {
    const sources = (await memory.sources(m.id)).map((s) => s.id).sort();
    out.push({ memory: m.memory, eventTime: m.metadata?.eventTime ?? null, sources });
  }
  return out.sort((a, b) => a.memory.localeCompare(b.memory));
}

/** Chat and embedding requests the server has seen. */
export const modelCalls = (server) => server.count("chat") + server.count("embedding");

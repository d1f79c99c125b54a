// Scripted models for imports of the generated archives (chatgpt-archive.mjs), for the scripted server
// (tests/support/scripted-server.mjs, in-process: the replies are functions): the extraction makes one fact of each
// user line of the new messages ("I …" → "User …"), and the decision adds every new fact not kept already. `delayMs` slows each call.

export const EXTRACT = "You are an expert at extracting structured, atomic facts";
export const DECIDE = "You are a memory management system";

/** "I have been …" → "User has been …", "I prefer" → "User prefers", "My sister …" → "User's sister …". */
export function factOf(line) {
  return line.replace(/^I prefer /, "User prefers ").replace(/^I have /, "User has ").replace(/^I am /, "User is ").replace(/^I /, "User ").replace(/^My /, "User's ");
}

/** The rules: extraction and decision, each `delayMs` slow. */
export function importModelRules({ delayMs = 0 } = {}) {
  return [
    { kind: "chat", match: [EXTRACT], delayMs, reply: ({ user }) => {
      const lines = user.slice(user.lastIndexOf("## New Messages")).split("\n").filter((l) => l.startsWith("user: "));
      return { facts: lines.map((l) => factOf(l.slice("user: ".length))) };
    } },
    { kind: "chat", match: [DECIDE], delayMs, reply: ({ user }) => {
      const facts = JSON.parse(/New facts:\n(\[[\s\S]*?\])\n/.exec(user)?.[1] ?? "[]");
      const existing = user.slice(0, user.indexOf("New facts:"));
      // A fact already kept (word for word) or said twice in the chunk is not added again, as a model would decide.
      const fresh = [...new Set(facts)].filter((text) => !existing.includes(JSON.stringify(text)));
      return { memory: fresh.map((text) => ({ text, event: "ADD" })) };
    } },
  ];
}

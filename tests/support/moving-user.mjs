// A user who moves city with every add(), for tests of concurrent adds that contradict: the extraction call
// turns "I moved to <city>" into "User lives in <city>", and the update decision answers from what its prompt
// shows: UPDATE of the memory that says where the user lives when one is listed, ADD otherwise. Eight adds
// that each see the one before end with one current fact and 7 UPDATEs in its history; adds that decide on
// the same snapshot store every city.

export const CITIES = ["Paris", "Berlin", "Rome", "Madrid", "Vienna", "Prague", "Lisbon", "Oslo"];
const EXTRACT = "You are an expert at extracting structured, atomic facts";
const DECIDE = "You are a memory management system";

/** The JSON array on the line after `label` in a decision prompt (`[]` when absent). */
export function listAfter(text, label) {
  const line = text.split(label)[1]?.split("\n").find((l) => l.trim() !== "");
  try {
    return JSON.parse(line ?? "[]");
  } catch {
    return [];
  }
}

/** The decision for the facts of `user` (the prompt's user message). */
export function moveDecision(user) {
  const home = listAfter(user, "Existing memories:").find((m) => String(m.text).startsWith("User lives in"));
  const facts = listAfter(user, "New facts:");
  const memory = facts.map((text) => (home ? { id: home.id, text, event: "UPDATE" } : { text, event: "ADD" }));
  return { memory };
}

/** The scripted server's rules (in-process servers only: the decision is a function of the prompt). */
export const movingUser = () => [
  {
    kind: "chat",
    match: [EXTRACT, "I moved to"],
    reply: ({ user }) => ({ facts: [`User lives in ${/I moved to (\w+)/.exec(user)?.[1]}`] }),
  },
  { kind: "chat", match: [DECIDE, "User lives in"], reply: ({ user }) => moveDecision(user) },
];

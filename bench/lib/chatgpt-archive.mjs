// A generated ChatGPT data export (`conversations.json`): `conversations` conversations in the export's shape
// (a node tree per conversation: a root without a message, a hidden system message, then user and assistant
// turns; `current_node` names the leaf the user kept), deterministic for a seed. One conversation in
// `branchEvery` has an edited user message: the first version stays in the tree as a branch the user left.
// Each user message states one fact ("I …"), so an extraction can be scripted from the text alone.
//
//   import { chatgptArchive } from "./lib/chatgpt-archive.mjs";
//   const conversations = chatgptArchive({ conversations: 1000, seed: 1 }); // JSON.stringify → conversations.json

const PEOPLE = ["sister", "brother", "neighbour", "manager", "best friend", "cousin", "daughter", "son"];
const NAMES = ["Ana", "Bruno", "Chiara", "Deniz", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena"];
const CITIES = ["Lisbon", "Osaka", "Tallinn", "Porto", "Quito", "Accra", "Hobart", "Bergen", "Cusco", "Leeds"];
const SKILLS = ["the cello", "Portuguese", "pottery", "bouldering", "Rust", "sourdough baking", "chess", "sailing"];
const FOODS = ["ramen", "falafel", "pierogi", "dal", "tacos", "bibimbap", "paella", "pho"];
const TOPICS = ["Trip planning", "Weekend plans", "Learning notes", "Family news", "Cooking ideas", "Work stuff"];

/** mulberry32: a small seeded generator of floats in [0, 1). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID-shaped id from the generator. */
function uuid(next) {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** One user statement: a fact about the user. */
function statement(next, n) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  switch (n % 4) {
    case 0: return `I have been learning ${pick(SKILLS)} for ${1 + Math.floor(next() * 9)} years.`;
    case 1: return `My ${pick(PEOPLE)} ${pick(NAMES)} lives in ${pick(CITIES)}.`;
    case 2: return `I prefer ${pick(FOODS)} over ${pick(FOODS)} on weeknights.`;
    default: return `I am planning a trip to ${pick(CITIES)} in ${1 + Math.floor(next() * 12)} months.`;
  }
}

/** A message node's `message` in the export's shape. */
function message(id, role, text, time, hidden = false) {
  return {
    id,
    author: { role, name: null, metadata: {} },
    create_time: time,
    update_time: null,
    content: { content_type: "text", parts: [text] },
    status: "finished_successfully",
    end_turn: role === "assistant" ? true : null,
    weight: 1.0,
    metadata: hidden ? { is_visually_hidden_from_conversation: true } : {},
    recipient: "all",
  };
}

/** One conversation of `turns` user/assistant pairs starting at `start` (seconds since the epoch). */
function conversation(next, index, start, turns, branched) {
  const id = uuid(next);
  const mapping = {};
  const add = (nodeId, msg, parent) => {
    mapping[nodeId] = { id: nodeId, message: msg, parent, children: [] };
    if (parent) mapping[parent].children.push(nodeId);
    return nodeId;
  };
  const root = add(uuid(next), null, null);
  let time = start;
  let last = add(uuid(next), message("", "system", "", null, true), root);
  mapping[last].message.id = last;
  for (let turn = 0; turn < turns; turn++) {
    if (branched && turn === 1) {
      // The first version of this message and its answer: a branch the user left by editing the message.
      const left = uuid(next);
      add(left, message(left, "user", `(first draft) ${statement(next, index + turn)}`, (time += 20)), last);
      const reply = uuid(next);
      add(reply, message(reply, "assistant", "Noted, thanks for telling me.", (time += 5)), left);
    }
    const user = uuid(next);
    last = add(user, message(user, "user", statement(next, index + turn), (time += 30 + Math.floor(next() * 300))), last);
    const answer = uuid(next);
    last = add(answer, message(answer, "assistant", "That sounds good. Tell me more whenever you like.", (time += 4)), last);
  }
  return {
    title: `${TOPICS[index % TOPICS.length]} ${index + 1}`,
    create_time: start,
    update_time: time,
    mapping,
    moderation_results: [],
    current_node: last,
    plugin_ids: null,
    conversation_id: id,
    conversation_template_id: null,
    gizmo_id: null,
    is_archived: false,
    safe_urls: [],
    default_model_slug: "gpt-4o",
    id,
  };
}

/** `conversations` conversations of 2–8 turns each (4–16 kept messages), a day or so apart, from 2023-01-01. */
export function chatgptArchive({ conversations = 1000, seed = 1, branchEvery = 10 } = {}) {
  const next = random(seed);
  const out = [];
  let start = 1672531200;
  for (let i = 0; i < conversations; i++) {
    start += 3600 + Math.floor(next() * 86400);
    const turns = 2 + Math.floor(next() * 7);
    out.push(conversation(next, i, start, turns, branchEvery > 0 && i % branchEvery === branchEvery - 1));
  }
  // The export lists the newest first, as ChatGPT's does.
  return out.reverse();
}

/** The messages an importer keeps from `archive` (the path from each `current_node` up, without system messages). */
export function keptMessages(archive) {
  let count = 0;
  for (const c of archive) {
    for (let node = c.mapping[c.current_node]; node; node = c.mapping[node.parent]) {
      const role = node.message?.author.role;
      if (role === "user" || role === "assistant") count++;
    }
  }
  return count;
}

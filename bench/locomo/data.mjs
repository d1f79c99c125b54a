// Reading one LOCOMO conversation file: its turns (as stored: "<speaker>: <text>", and
// " [shares <caption>]" when the turn shares an image), its sessions with their dates, and its questions.

/** The question categories scored (5, adversarial, has no answer in the conversation). */
export const QUESTION_CATEGORIES = [
  { n: 1, name: "multi-hop" },
  { n: 2, name: "temporal" },
  { n: 3, name: "open-domain" },
  { n: 4, name: "single-hop" },
];

/** `{turns, sessions, questions}` of a parsed conversation file. */
export function conversation(data) {
  const sessions = [];
  for (let n = 1; data[`session_${n}`]; n++) {
    const turns = data[`session_${n}`].map((t) => ({
      dia_id: t.dia_id,
      session: n,
      text: `${t.speaker}: ${t.text}` + (t.blip_caption ? ` [shares ${t.blip_caption}]` : ""),
    }));
    sessions.push({ n, date: data[`session_${n}_date_time`], turns });
  }
  const questions = data.qa.filter((q) => QUESTION_CATEGORIES.some((c) => c.n === q.category));
  return { sessions, turns: sessions.flatMap((s) => s.turns), questions };
}

/** A question's evidence turn ids, each once (a few entries list several ids in one string). */
export function evidenceOf(question) {
  const ids = question.evidence.flatMap((e) => e.split(/[;,\s]+/)).map((e) => e.trim()).filter((e) => /^D\d+:\d+$/.test(e));
  return [...new Set(ids)];
}

/** Turn recall@k: the share of a question's evidence turn ids among the first k of `top`. */
export function turnRecall(top, evidence, k) {
  const first = top.slice(0, k);
  return evidence.filter((e) => first.includes(e)).length / evidence.length;
}

/** Stores a conversation's `sessions` in `memory` for `userId` as the LOCOMO scripts do: each session's
 * turns in one add() (`infer: false`, so a turn is a memory), with the session and its date in metadata. */
export async function storeSessions(memory, sessions, userId) {
  for (const session of sessions) {
    const messages = session.turns.map((t) => ({ role: "user", content: t.text }));
    await memory.add(messages, { userId, infer: false, metadata: { session: session.n, date: session.date } });
  }
}

/** The dialogue id (`dia_id`) of a stored memory of `turns`, found by session and text (each turn's text is
 * unique within its session); undefined for a memory that is not one of them. */
export function turnIds(turns) {
  const turnOf = new Map(turns.map((t) => [`${t.session}\u0000${t.text}`, t]));
  return (item) => turnOf.get(`${item.metadata.session}\u0000${item.memory}`)?.dia_id;
}

// The rerank services' wire, for the scripted server: Cohere's `POST /v2/rerank`, Jina's and Voyage's
// `POST /v1/rerank` (told apart by the count field: Jina's `top_n`, Voyage's `top_k`). A request is
// `{model, query, documents: [string], top_n | top_k}` with a bearer key; the reply is
// `{results | data: [{index, relevance_score}]}`, best first, at most the count asked for.
// Rules of kind "rerank" (see scripted-server.mjs) match a substring of the query and give `scores`: one
// relevance per document, by index, or a function ({query, documents}) => scores (in-process only). Without
// one, a document scores by the share of the query's words it holds.

/** One rerank service's wire. */
function rerankWire(name, countField, listField) {
  return {
    name,
    countField,
    listField,
    errorBody: (status, message) => (name === "cohere" ? { message } : { detail: message, status }),
    /** What the real API refuses in this request (`{status, message}`), or undefined. */
    check(_kind, { body, headers }) {
      if (!/^Bearer \S+/.test(headers.authorization ?? "")) return { status: 401, message: "missing bearer API key" };
      if (typeof body.model !== "string" || body.model === "") return { status: 400, message: "`model` is required" };
      if (typeof body.query !== "string") return { status: 400, message: "`query` must be a string" };
      const documents = body.documents;
      if (!Array.isArray(documents) || !documents.every((d) => typeof d === "string"))
        return { status: 400, message: "`documents` must be an array of strings" };
      const count = body[countField];
      if (count !== undefined && (!Number.isInteger(count) || count < 1))
        return { status: 400, message: `\`${countField}\` must be a positive integer` };
      return undefined;
    },
    /** The reply for `scores` (one per document): best first, cut to the count asked for. */
    reply(body, scores) {
      const ranked = scores.map((relevance_score, index) => ({ index, relevance_score }));
      ranked.sort((a, b) => b.relevance_score - a.relevance_score);
      return { [listField]: ranked.slice(0, body[countField] ?? ranked.length) };
    },
  };
}

export const cohere = rerankWire("cohere", "top_n", "results");
export const jina = rerankWire("jina", "top_n", "results");
export const voyage = rerankWire("voyage", "top_k", "data");

/** The rerank route of a request, `{wire, kind: "rerank", params}`, or undefined. */
export function rerankRoute(path, body) {
  if (path === "/v2/rerank") return { wire: cohere, kind: "rerank", params: {} };
  if (path !== "/v1/rerank") return undefined;
  const voyageBody = body !== null && typeof body === "object" && "top_k" in body;
  return { wire: voyageBody ? voyage : jina, kind: "rerank", params: {} };
}

/** The share of `query`'s words that `document` holds (the score without a rule). */
export function overlap(query, document) {
  const words = (text) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const [asked, held] = [words(query), words(document)];
  return asked.size === 0 ? 0 : [...asked].filter((w) => held.has(w)).length / asked.size;
}

// memwasm/ai: the Vercel AI SDK (`ai` 7) over the public Memory API. `memoryTools` gives AI SDK tools bound to
// one scope (search, add, update, delete), and `memoryMiddleware` / `withMemory` put `recall()`'s `<memory>`
// block into the system prompt before each model call (optionally keeping the exchange afterwards).
import { jsonSchema, tool, wrapLanguageModel } from "ai";
import { MemoryError } from "./dist/errors.js";

const str = (description) => ({ type: "string", description });
const ID = str("The memory's id, as searchMemories returned it.");
const object = (properties, required) => ({ type: "object", properties, required, additionalProperties: false });

/** The tools: what the model reads (description, schema) and what runs (through `memory.tools(scope)`). */
const TOOLS = {
  searchMemories: {
    description:
      "Search long-term memory about the user for facts relevant to a query. Returns the best matches with their " +
      "ids, best first. Use it before answering anything that may depend on what you know about the user.",
    schema: object({
      query: str("What to look for, in natural language."),
      limit: { type: "integer", minimum: 1, maximum: 50, description: "Most results to return (default 5)." },
    }, ["query"]),
    run: ({ handle }, input) => handle.runTool("search_memory", input),
  },
  addMemory: {
    description:
      "Remember a new fact about the user: one short, self-contained sentence such as \"User is vegetarian\". " +
      "Returns what was stored, with ids.",
    schema: object({ content: str("The fact to remember.") }, ["content"]),
    run: async ({ handle, memory, scope, infer }, { content }) => {
      if (!infer) return { results: [await handle.runTool("manage_memory", { action: "create", content })] };
      const { results, warnings } = await memory.add(content, { ...scope });
      const out = { results: results.map(({ id, event, memory: text }) => ({ event, id, memory: text })) };
      return warnings.length ? { ...out, warnings: warnings.map(({ code, message }) => ({ code, message })) } : out;
    },
  },
  updateMemory: {
    description:
      "Replace the text of a memory (its id from searchMemories) when a remembered fact has changed.",
    schema: object({ id: ID, content: str("The new text of the memory.") }, ["id", "content"]),
    run: ({ handle }, { id, content }) => handle.runTool("manage_memory", { action: "update", id, content }),
  },
  deleteMemory: {
    description: "Forget a memory (its id from searchMemories) that is wrong or that the user asks to forget.",
    schema: object({ id: ID }, ["id"]),
    run: ({ handle }, { id }) => handle.runTool("manage_memory", { action: "delete", id }),
  },
};

/** The names of the tools `memoryTools` makes, in order. */
export const MEMORY_TOOL_NAMES = Object.freeze(Object.keys(TOOLS));

const invalid = (message) => new MemoryError(message, "INVALID_INPUT");
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks a tool input against its (flat) schema; the message names the tool and the field. */
function check(name, { properties, required }, input) {
  if (!isObject(input)) throw invalid(`${name}: the input must be an object`);
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(properties, key)) throw invalid(`${name}: unknown field "${key}"; the known ones are ${Object.keys(properties).join(", ")}`);
  }
  for (const key of required) if (input[key] === undefined) throw invalid(`${name}: missing field "${key}"`);
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const { type, minimum, maximum } = properties[key];
    if (type === "string" && typeof value !== "string") throw invalid(`${name}: "${key}" must be a string`);
    if (type === "integer" && !(Number.isInteger(value) && value >= minimum && value <= maximum)) {
      throw invalid(`${name}: "${key}" must be a whole number from ${minimum} to ${maximum}`);
    }
  }
}

/** Throws INVALID_INPUT unless `memory` is a Memory and `options` an object of `known` keys. */
function checkArguments(fn, memory, options, known) {
  const methods = ["tools", "recall", "add", "flush"];
  if (!isObject(memory) || !methods.every((m) => typeof memory[m] === "function")) {
    throw invalid(`${fn}: the first argument must be a Memory`);
  }
  if (!isObject(options)) throw invalid(`${fn}: options must be an object`);
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown !== undefined) throw invalid(`${fn}: unknown option "${unknown}"; the known ones are ${known.join(", ")}`);
}

/**
 * AI SDK tools over `memory`, bound to `scope`: a model using them can neither see nor change another
 * scope's memories. A failed call resolves with `{error: {code, message}}` so the model can correct itself.
 */
export function memoryTools(memory, scope, options = {}) {
  checkArguments("memoryTools", memory, options, ["include", "infer"]);
  const { include = MEMORY_TOOL_NAMES, infer = false } = options;
  if (!Array.isArray(include) || include.some((name) => !MEMORY_TOOL_NAMES.includes(name))) {
    throw invalid(`memoryTools: include must list some of ${MEMORY_TOOL_NAMES.join(", ")}`);
  }
  if (typeof infer !== "boolean") throw invalid("memoryTools: infer must be true or false");
  const handle = memory.tools(scope); // SCOPE_REQUIRED without a userId, agentId or runId
  const bound = { handle, memory, scope: handle.scope, infer };
  const tools = {};
  for (const name of MEMORY_TOOL_NAMES.filter((n) => include.includes(n))) {
    const { description, schema, run } = TOOLS[name];
    tools[name] = tool({
      description,
      inputSchema: jsonSchema(schema),
      execute: async (input) => {
        try {
          check(name, schema, input);
          return await run(bound, input);
        } catch (error) {
          if (typeof error?.code !== "string") throw error;
          return { error: { code: error.code, message: String(error.message) } };
        }
      },
    });
  }
  return tools;
}

const PREAMBLE =
  "What you remember about the user from earlier conversations. Use it when it is relevant to the request, " +
  "ignore it otherwise, and do not quote this block.";
const SCOPE_KEYS = ["userId", "agentId", "runId", "user_id", "agent_id", "run_id"];
const MIDDLEWARE_OPTIONS = ["tokenBudget", "topK", "preamble", "addAfter", "onError"];

/** The text of the last user message of a language-model prompt ("" when there is none). */
function lastUserText(prompt) {
  const message = Array.isArray(prompt) ? prompt.findLast((m) => m?.role === "user") : undefined;
  if (!message) return "";
  if (typeof message.content === "string") return message.content.trim();
  const parts = Array.isArray(message.content) ? message.content : [];
  return parts.filter((p) => p?.type === "text" && typeof p.text === "string").map((p) => p.text).join("\n").trim();
}

/**
 * A language-model middleware (`wrapLanguageModel({model, middleware})`): before each call it recalls what
 * `memory` holds for the last user message and puts the `<memory>` block at the head of the system prompt.
 * With `addAfter: true` an answer (a step without tool calls) is kept with `memory.flush` after the call.
 */
export function memoryMiddleware(memory, scope, options = {}) {
  checkArguments("memoryMiddleware", memory, options, MIDDLEWARE_OPTIONS);
  if (!isObject(scope) || !SCOPE_KEYS.some((k) => typeof scope[k] === "string" && scope[k] !== "")) {
    throw new MemoryError("memoryMiddleware: the scope needs a userId, agentId or runId", "SCOPE_REQUIRED");
  }
  const { tokenBudget, topK, preamble = PREAMBLE, addAfter = false, onError } = options;
  if (typeof preamble !== "string") throw invalid("memoryMiddleware: preamble must be a string");
  if (typeof addAfter !== "boolean") throw invalid("memoryMiddleware: addAfter must be true or false");
  if (onError !== undefined && typeof onError !== "function") throw invalid("memoryMiddleware: onError must be a function");
  const fixed = { ...scope };
  const recallOptions = { ...fixed, ...(tokenBudget !== undefined && { tokenBudget }), ...(topK !== undefined && { topK }) };
  const failed = (error) => { if (!onError) throw error; onError(error); };

  async function remember(params, answer, calledTools) {
    const question = lastUserText(params.prompt);
    if (!addAfter || calledTools || !question || !answer.trim()) return;
    try {
      await memory.flush([{ role: "user", content: question }, { role: "assistant", content: answer }], fixed);
    } catch (error) {
      failed(error);
    }
  }

  return {
    specificationVersion: "v4",
    async transformParams({ params }) {
      const query = lastUserText(params.prompt);
      if (!query) return params;
      const recalled = await memory.recall(query, recallOptions).catch(failed);
      if (!recalled?.text) return params;
      const block = preamble ? `${preamble}\n${recalled.text}` : recalled.text;
      const prompt = [...params.prompt];
      if (prompt[0]?.role === "system") prompt[0] = { ...prompt[0], content: `${block}\n\n${prompt[0].content}` };
      else prompt.unshift({ role: "system", content: block });
      return { ...params, prompt };
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const content = Array.isArray(result.content) ? result.content : [];
      const answer = content.filter((p) => p.type === "text").map((p) => p.text).join("");
      await remember(params, answer, content.some((p) => p.type === "tool-call"));
      return result;
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      if (!addAfter) return result;
      let answer = "";
      let calledTools = false;
      const keep = new TransformStream({
        transform(part, controller) {
          if (part?.type === "text-delta") answer += part.delta ?? "";
          if (part?.type === "tool-call") calledTools = true;
          controller.enqueue(part);
        },
        flush: () => remember(params, answer, calledTools),
      });
      return { ...result, stream: result.stream.pipeThrough(keep) };
    },
  };
}

/** `model` wrapped with `memoryMiddleware(memory, scope, options)`. */
export function withMemory(model, memory, scope, options) {
  if (!isObject(model)) throw invalid("withMemory: the first argument must be a language model");
  return wrapLanguageModel({ model, middleware: memoryMiddleware(memory, scope, options) });
}

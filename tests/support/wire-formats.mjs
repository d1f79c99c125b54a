// The wire formats the scripted server speaks, one object per provider API. Each knows its routes, how to
// check a request the way the real API would (path, headers, body fields), where the prompt text and the
// texts to embed are, and how the real API shapes its replies and its errors.
//
//   openai      POST /v1/chat/completions, /v1/embeddings
//               errors {"error":{"message","type","code"}}
//   azure       POST /openai/deployments/{d}/chat/completions|embeddings?api-version=… (api-key header)
//               errors {"error":{"code","message"}}
//   anthropic   POST /v1/messages (x-api-key, anthropic-version)
//               errors {"type":"error","error":{"type","message"}}
//   gemini      POST /v1beta/models/{m}:generateContent|batchEmbedContents (x-goog-api-key)
//               errors {"error":{"code","message","status"}}
//   ollama      POST /api/chat (NDJSON unless stream: false), /api/embed
//               errors {"error":"…"}
//   workers-ai  POST /client/v4/accounts/{a}/ai/run/{model} (Cloudflare REST; the binding stand-in calls it)
//               errors {"success":false,"errors":[{"code","message"}]}

const approxTokens = (s) => Math.ceil(String(s).length / 4);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const texts = (parts) => (Array.isArray(parts) ? parts.map((p) => (typeof p === "string" ? p : (p?.text ?? ""))) : []);
const content = (c) => (Array.isArray(c) ? texts(c).join("\n") : String(c ?? ""));
const header = (headers, name) => headers[name.toLowerCase()];
const missing = (status, message) => ({ status, message });

/** Parses a reply string as JSON, or undefined. */
function json(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** OpenAI-style messages: system = system messages, user = the rest. */
function messageText(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const of = (keep) =>
    msgs
      .filter(keep)
      .map((m) => content(m?.content))
      .join("\n");
  return { system: of((m) => m?.role === "system"), user: of((m) => m?.role !== "system") };
}

function messagesCheck(body) {
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return missing(400, "`messages` must be a non-empty array");
  if (!body.messages.every((m) => isObject(m) && typeof m.role === "string"))
    return missing(400, "every message needs a role");
  return null;
}

function embeddingInputs(input) {
  if (input === undefined || input === null) return { error: "missing `input`" };
  return { inputs: (Array.isArray(input) ? input : [input]).map(String) };
}

function openaiError(status, message) {
  const type = status === 429 ? "rate_limit_error" : status < 500 ? "invalid_request_error" : "server_error";
  return { error: { message, type, code: null } };
}

const openaiChatReply = ({ body, content: text, prompt, counter }) => ({
  id: `chatcmpl-${counter}`,
  object: "chat.completion",
  created: Math.floor(Date.now() / 1000),
  model: body?.model ?? "scripted",
  choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
  usage: {
    prompt_tokens: approxTokens(prompt),
    completion_tokens: approxTokens(text),
    total_tokens: approxTokens(prompt) + approxTokens(text),
  },
});

const openaiEmbeddingReply = ({ body, inputs, vectors }) => {
  const tokens = inputs.reduce((n, s) => n + approxTokens(s), 0);
  return {
    object: "list",
    data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
    model: body?.model ?? "scripted-embedding",
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
};

export const openai = {
  name: "openai",
  check: (kind, { body }) => (kind === "chat" ? messagesCheck(body) : null),
  chatText: messageText,
  inputs: (body) => embeddingInputs(body?.input),
  dimensions: (body) => body?.dimensions,
  chatReply: openaiChatReply,
  embeddingReply: openaiEmbeddingReply,
  errorBody: openaiError,
};

const AZURE_CODES = { 400: "BadRequest", 401: "401", 404: "DeploymentNotFound", 429: "429" };
export const azure = {
  ...openai,
  name: "azure",
  check(kind, { body, headers, url }) {
    if (!url.searchParams.get("api-version"))
      return missing(404, "Resource not found (no api-version query parameter)");
    if (!header(headers, "api-key"))
      return missing(401, "Access denied due to missing subscription key (api-key header)");
    return openai.check(kind, { body });
  },
  errorBody: (status, message) => ({
    error: { code: AZURE_CODES[status] ?? (status >= 500 ? "InternalServerError" : String(status)), message },
  }),
};

const ANTHROPIC_TYPES = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};
export const anthropic = {
  name: "anthropic",
  check(kind, { body, headers }) {
    if (!header(headers, "x-api-key")) return missing(401, "x-api-key header is required");
    if (!header(headers, "anthropic-version")) return missing(400, "anthropic-version header is required");
    if (typeof body.model !== "string") return missing(400, "model: Field required");
    if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return missing(400, "max_tokens: Field required");
    const bad = messagesCheck(body);
    if (bad) return bad;
    if (body.messages.some((m) => !["user", "assistant"].includes(m.role)))
      return missing(400, "messages: roles must be user or assistant (the system prompt is the top-level `system`)");
    if (body.system !== undefined && typeof body.system !== "string" && !Array.isArray(body.system))
      return missing(400, "system: must be a string or text blocks");
    const tools = body.tools ?? [];
    if (!Array.isArray(tools) || !tools.every((t) => typeof t?.name === "string" && t?.input_schema?.type === "object"))
      return missing(400, "tools: each needs a name and an input_schema of type object");
    const choice = body.tool_choice;
    if (choice?.type === "tool" && !tools.some((t) => t.name === choice.name))
      return missing(400, `tool_choice: no tool named ${choice.name}`);
    return null;
  },
  chatText: (body) => ({
    system: Array.isArray(body?.system) ? texts(body.system).join("\n") : String(body?.system ?? ""),
    user: (body?.messages ?? []).map((m) => content(m?.content)).join("\n"),
  }),
  chatReply({ body, content: text, prompt, counter, rule }) {
    const forced = body?.tool_choice?.type === "tool" ? body.tool_choice.name : undefined;
    const input = json(text);
    const useTool = forced !== undefined && rule?.toolUse !== false && isObject(input);
    return {
      id: `msg_${counter}`,
      type: "message",
      role: "assistant",
      model: body?.model,
      content: useTool ? [{ type: "tool_use", id: `toolu_${counter}`, name: forced, input }] : [{ type: "text", text }],
      stop_reason: useTool ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: approxTokens(prompt), output_tokens: approxTokens(text) },
    };
  },
  errorBody: (status, message) => ({
    type: "error",
    error: { type: ANTHROPIC_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"), message },
  }),
};

const GOOGLE_STATUS = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};
const partsText = (c) => texts(c?.parts).join("\n");
export const gemini = {
  name: "gemini",
  check(kind, { body, headers, url, params }) {
    if (url.searchParams.has("key")) return missing(400, "scripted-server: send the key as x-goog-api-key, not ?key=");
    if (!header(headers, "x-goog-api-key"))
      return missing(403, "Method doesn't allow unregistered callers (x-goog-api-key missing)");
    if (kind === "embedding") {
      if (!Array.isArray(body.requests) || body.requests.length === 0)
        return missing(400, "requests: must be a non-empty array");
      if (body.requests.length > 100) return missing(400, "at most 100 requests can be in one batch");
      const bad = body.requests.find((r) => r?.model !== `models/${params.model}` || !Array.isArray(r?.content?.parts));
      return bad ? missing(400, `each request needs model models/${params.model} and content.parts`) : null;
    }
    if (!Array.isArray(body.contents) || !body.contents.every((c) => Array.isArray(c?.parts)))
      return missing(400, "contents: must be an array of {role, parts}");
    const config = body.generationConfig ?? {};
    if (config.responseSchema !== undefined && config.responseMimeType !== "application/json")
      return missing(400, "responseSchema needs responseMimeType application/json");
    return null;
  },
  chatText: (body) => ({
    system: partsText(body?.systemInstruction ?? body?.system_instruction),
    user: (body?.contents ?? []).map(partsText).join("\n"),
  }),
  inputs: (body) => ({ inputs: (body?.requests ?? []).map((r) => partsText(r?.content)) }),
  dimensions: (body) => body?.requests?.[0]?.outputDimensionality,
  chatReply: ({ body, content: text, prompt, params }) => ({
    candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: approxTokens(prompt),
      candidatesTokenCount: approxTokens(text),
      totalTokenCount: approxTokens(prompt) + approxTokens(text),
    },
    modelVersion: params.model ?? body?.model,
  }),
  embeddingReply: ({ vectors }) => ({ embeddings: vectors.map((values) => ({ values })) }),
  errorBody: (status, message) => ({
    error: {
      code: status,
      message,
      status: GOOGLE_STATUS[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION"),
    },
  }),
};

export const ollama = {
  name: "ollama",
  check(kind, { body }) {
    if (typeof body.model !== "string") return missing(400, "model is required");
    if (kind === "embedding") return body.input === undefined ? missing(400, "input is required") : null;
    if (body.format !== undefined && body.format !== "json" && !isObject(body.format))
      return missing(400, 'format must be "json" or a JSON schema');
    return messagesCheck(body);
  },
  chatText: messageText,
  inputs: (body) => embeddingInputs(body?.input),
  dimensions: (body) => body?.dimensions,
  chatReply({ body, content: text, prompt }) {
    const done = {
      model: body.model,
      created_at: new Date().toISOString(),
      message: { role: "assistant", content: text },
      done_reason: "stop",
      done: true,
      total_duration: 1000,
      prompt_eval_count: approxTokens(prompt),
      eval_count: approxTokens(text),
    };
    if (body.stream === false) return done;
    // Ollama streams NDJSON unless told otherwise: one line per chunk, then the final one.
    const chunk = {
      model: body.model,
      created_at: done.created_at,
      message: { role: "assistant", content: text },
      done: false,
    };
    return { ndjson: [chunk, { ...done, message: { role: "assistant", content: "" } }] };
  },
  embeddingReply: ({ body, vectors, inputs }) => ({
    model: body.model,
    embeddings: vectors,
    total_duration: 1000,
    load_duration: 10,
    prompt_eval_count: inputs.length,
  }),
  errorBody: (status, message) => ({ error: message }),
};

const BGE_DIMENSIONS = {
  "@cf/baai/bge-small-en-v1.5": 384,
  "@cf/baai/bge-base-en-v1.5": 768,
  "@cf/baai/bge-large-en-v1.5": 1024,
  "@cf/baai/bge-m3": 1024,
};
const cloudflare = (result) => ({ result, success: true, errors: [], messages: [] });
export const workersAi = {
  name: "workers-ai",
  check(kind, { body, headers }) {
    if (!String(header(headers, "authorization") ?? "").startsWith("Bearer "))
      return missing(401, "Authentication error");
    if (kind === "embedding")
      return typeof body.text === "string" || Array.isArray(body.text) ? null : missing(400, "text is required");
    return messagesCheck(body);
  },
  chatText: messageText,
  inputs: (body) => ({ inputs: (Array.isArray(body?.text) ? body.text : [body?.text]).map(String) }),
  dimensions: (body, params) => BGE_DIMENSIONS[params.model],
  chatReply({ body, content: text }) {
    // In JSON mode Workers AI hands back the parsed object.
    const parsed = body.response_format ? json(text) : undefined;
    return cloudflare({
      response: parsed !== undefined && typeof parsed === "object" ? parsed : text,
      usage: { prompt_tokens: 1, completion_tokens: approxTokens(text), total_tokens: 1 + approxTokens(text) },
    });
  },
  embeddingReply: ({ vectors }) =>
    cloudflare({ shape: [vectors.length, vectors[0]?.length ?? 0], data: vectors, pooling: "mean" }),
  errorBody: (status, message) => ({
    result: null,
    success: false,
    errors: [{ code: status === 429 ? 3040 : 5006, message }],
    messages: [],
  }),
};

/** The wire, kind and path parameters of a request, or undefined for an unknown path. */
export function route(method, url, body) {
  if (method !== "POST") return undefined;
  const path = url.pathname;
  let m;
  if (path === "/v1/chat/completions") return { wire: openai, kind: "chat", params: {} };
  if (path === "/v1/embeddings") return { wire: openai, kind: "embedding", params: {} };
  if ((m = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(path)))
    return { wire: azure, kind: m[2] === "embeddings" ? "embedding" : "chat", params: { deployment: m[1] } };
  if (path === "/v1/messages") return { wire: anthropic, kind: "chat", params: {} };
  if ((m = /^\/v1beta\/models\/([^/:]+):(generateContent|batchEmbedContents)$/.exec(path)))
    return { wire: gemini, kind: m[2] === "generateContent" ? "chat" : "embedding", params: { model: m[1] } };
  if (path === "/api/chat") return { wire: ollama, kind: "chat", params: {} };
  if (path === "/api/embed") return { wire: ollama, kind: "embedding", params: {} };
  if ((m = /^\/client\/v4\/accounts\/([^/]+)\/ai\/run\/(.+)$/.exec(path)))
    return {
      wire: workersAi,
      kind: isObject(body) && "messages" in body ? "chat" : "embedding",
      params: { account: m[1], model: decodeURIComponent(m[2]) },
    };
  return undefined;
}

/** Every wire, by name. */
export const WIRES = Object.fromEntries([openai, azure, anthropic, gemini, ollama, workersAi].map((w) => [w.name, w]));

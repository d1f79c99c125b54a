// MCP revision 2026-07-28 over stdio, beside the revisions of the SDK's `initialize` handshake (2025-11-25 and
// older, which the SDK's Server answers). A 2026-07-28 request carries its revision and the client's
// capabilities in `params._meta` and is answered here on its own, with no state from earlier lines:
// `server/discover`, `tools/list` and `tools/call`. Every result carries `resultType` and the server's
// identity in `_meta`; a revision not served is refused with UnsupportedProtocolVersion (-32022).

import { SERVER_INFO, TOOLS, callTool, instructionsFor, listedTools } from "./server.mjs";

/** The current revision, served here. */
export const CURRENT = "2026-07-28";
/** Every revision served, newest first: the SDK's handshake serves the older ones. */
export const SERVED = [CURRENT, "2025-11-25", "2025-06-18", "2025-03-26"];

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** How long a client may keep a tools/list or server/discover answer: the tools only change with the server. */
const CACHE = { ttlMs: 300_000, cacheScope: "public" };

/** True for a request of revision 2026-07-28 or later: it names its revision in `_meta`, or is server/discover. */
export const isModernRequest = (message) => message.id !== undefined && typeof message.method === "string" &&
  (message.method === "server/discover" || message.params?._meta?.[VERSION_KEY] !== undefined);

const failure = (id, code, message, data) => ({ jsonrpc: "2.0", id, error: { code, message, ...(data ? { data } : {}) } });

/** Why a request's `_meta` cannot be served (an error response), or null. */
function refusal(id, meta) {
  const requested = meta?.[VERSION_KEY];
  if (typeof requested !== "string") {
    return failure(id, INVALID_PARAMS, `every request needs _meta["${VERSION_KEY}"]`, { code: "INVALID_REQUEST" });
  }
  if (requested !== CURRENT) {
    return failure(id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", { supported: SERVED, requested });
  }
  const capabilities = meta[CAPABILITIES_KEY];
  if (capabilities === null || typeof capabilities !== "object" || Array.isArray(capabilities)) {
    return failure(id, INVALID_PARAMS, `every request needs _meta["${CAPABILITIES_KEY}"] (an object)`, { code: "INVALID_REQUEST" });
  }
  return null;
}

async function resultOf(method, params, ctx) {
  switch (method) {
    case "server/discover":
      return { supportedVersions: SERVED, capabilities: { tools: {} }, instructions: instructionsFor(ctx), ...CACHE };
    case "tools/list":
      return { tools: listedTools(ctx), ...CACHE };
    case "tools/call":
      if (typeof params.name !== "string" || !TOOLS.some((t) => t.name === params.name)) {
        throw Object.assign(new Error(`Unknown tool: ${params.name}`), { code: INVALID_PARAMS, data: { code: "INVALID_INPUT" } });
      }
      return callTool(params.name, params.arguments, ctx);
    default:
      throw Object.assign(new Error(`Method not found: ${method}`), { code: METHOD_NOT_FOUND, data: { code: "NOT_FOUND" } });
  }
}

/** The response to a 2026-07-28 `message` (see isModernRequest) against ctx = {memory, userId, graph}. */
export async function answerModern(message, ctx) {
  const { id, method, params = {} } = message;
  const refused = refusal(id, params._meta);
  if (refused) return refused;
  try {
    const result = await resultOf(method, params, ctx);
    return { jsonrpc: "2.0", id, result: { ...result, resultType: "complete", _meta: { [SERVER_INFO_KEY]: SERVER_INFO } } };
  } catch (error) {
    const code = Number.isInteger(error?.code) ? error.code : INTERNAL_ERROR;
    return failure(id, code, String(error?.message ?? error), error?.data ?? { code: "INTERNAL" });
  }
}

// memwasm's MCP server: the tools of tools.json over one Memory, on the official MCP SDK's low-level
// Server (the SDK is an optional peer dependency, imported only here), each call held to the model-call
// budget (budget.mjs).

import { readFileSync } from "node:fs";
import { check, tooDeep } from "./validate.mjs";
import { overBudget } from "./budget.mjs";
import { memoryTools } from "./memory-tools.mjs";
import { GRAPH_ONLY, graphOff, graphTools } from "./graph-tools.mjs";

/** The tool definitions: name, title, description, inputSchema and outputSchema (JSON Schema), annotations. */
export const TOOLS = JSON.parse(readFileSync(new URL("./tools.json", import.meta.url), "utf8"));
const HANDLERS = { ...memoryTools, ...graphTools };
const VERSION = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
/** The server's name and version, as MCP's `Implementation`. */
export const SERVER_INFO = { name: "memwasm", version: VERSION };
const SDK = "@modelcontextprotocol/sdk";

/** The SDK's modules, or an error that says what to install. */
export async function loadSdk() {
  try {
    const [server, types] = await Promise.all([import(`${SDK}/server/index.js`), import(`${SDK}/types.js`)]);
    return { Server: server.Server, types };
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes(SDK)) throw error;
    throw Object.assign(new Error(`memwasm mcp needs the MCP TypeScript SDK, an optional peer dependency: ` +
      `npm install ${SDK}@1 where memwasm is installed (in the same project, or with -g beside a global memwasm)`), { code: "MISSING_SDK" });
  }
}

const textResult = (value, isError = false) => ({
  content: [{ type: "text", text: JSON.stringify(value ?? null) }],
  ...(isError ? { isError: true } : value && typeof value === "object" && !Array.isArray(value) ? { structuredContent: value } : {}),
});

/** The result of a failed call: `{error: {code, message, status?}}`, `isError: true`. */
function errorResult(error) {
  const code = typeof error?.code === "string" ? error.code : "INTERNAL";
  const body = { code, message: String(error?.message ?? error) };
  if (error?.status !== undefined) body.status = error.status;
  return textResult({ error: body }, true);
}

/** A JSON-RPC server error (implementation-defined range) for a limit, our code in `data.code`. */
const LIMIT_EXCEEDED = -32000;

/** Runs tool `name` with `args` (not yet checked) against ctx = {memory, userId, graph}: a CallToolResult.
 * A call over the model-call budget throws a protocol error (MODEL_BUDGET_EXCEEDED) before it runs. */
export async function callTool(name, args, ctx) {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return errorResult({ code: "INVALID_INPUT", message: `Unknown tool ${JSON.stringify(name)}` });
  if (!ctx.graph && GRAPH_ONLY.has(name)) return errorResult(graphOff(name));
  const deep = tooDeep(args ?? {});
  if (deep) return errorResult({ code: "INVALID_INPUT", message: deep });
  const problem = check(tool.inputSchema, args ?? {});
  if (problem) return errorResult({ code: "INVALID_INPUT", message: `${name}: ${problem}` });
  const over = overBudget(name, args ?? {});
  if (over) throw Object.assign(new Error(over), { code: LIMIT_EXCEEDED, data: { code: "MODEL_BUDGET_EXCEEDED" } });
  try {
    return textResult(await HANDLERS[name](args ?? {}, ctx));
  } catch (error) {
    return errorResult(error);
  }
}

/** The tools a client is shown: without graph memory, not the graph-only ones (a call to one is NOT_SUPPORTED). */
export const listedTools = (ctx) => TOOLS.filter((t) => ctx.graph || !GRAPH_ONLY.has(t.name));

/** What the server tells the model about itself (initialize, server/discover). */
export const instructionsFor = (ctx) => "Long-term memory. search_memories before answering questions about the " +
  "user; add_memory for facts and preferences worth keeping. Calls without user_id use the user " +
  `${JSON.stringify(ctx.userId)}.`;

/** An SDK `Server` answering tools/list and tools/call. ctx = {memory, userId, graph}. */
export function createServer(sdk, ctx) {
  const { ListToolsRequestSchema, CallToolRequestSchema, McpError, ErrorCode } = sdk.types;
  const server = new sdk.Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: instructionsFor(ctx) });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools(ctx) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name, arguments: args } = request.params;
    if (!TOOLS.some((t) => t.name === name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return callTool(name, args, ctx);
  });
  return server;
}

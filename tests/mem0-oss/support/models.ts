// The model endpoints of the ported mem0 tests: one scripted OpenAI-compatible server per test file
// (tests/support/scripted-server.mjs, on 127.0.0.1), started when a test file first imports this module and
// closed after its tests (support/setup.ts). It stands in for the jest.mock() of mem0's LLM and embedder:
// `mem0Mock` builds rules that give the same replies mem0's MockLLM / MockEmbedder gave.
import { startScriptedServer } from "../../support/scripted-server.mjs";

type Rule = Record<string, unknown>;

/** The handle startScriptedServer() resolves to (scripted-server.mjs). */
interface ScriptedServer {
  url: string;
  baseUrl: string;
  port: number;
  script(rule: Rule | Rule[]): unknown;
  reset(): unknown;
  requests(filter?: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const server = (await startScriptedServer({ port: 0 })) as unknown as ScriptedServer;

type ChatRequest = { system: string; user: string; text: string; body: { messages?: { role: string; content: unknown }[] } };

export const models = {
  /** OpenAI-format base URL (`…/v1`): `llm.config.baseURL` / `embedder.config.baseURL`. */
  baseURL: server.baseUrl,
  /** The server's root (`http://127.0.0.1:PORT`): Ollama's base URL. */
  url: server.url,
  script(...rules: Rule[]): void {
    server.script(rules);
  },
  /** The requests the server received (`"chat"`, `"embedding"`, or every one). */
  requests(kind?: string): Array<Record<string, unknown>> {
    return server.requests(kind);
  },
  reset(): void {
    server.reset();
  },
  close(): Promise<void> {
    return server.close();
  },
};

/** mem0's MockEmbedder: the same 1536-dim vector of 0.1 for every text. */
export const MOCK_EMBEDDING: number[] = new Array(1536).fill(0.1);

/** memwasm's update-decision call (its second call of add(); mem0 v3 makes no such call, its add() is one
 * extraction call): its system prompt starts "You are a memory management system" (src/core/prompts.rs) and its
 * user message lists the "New facts:". mem0 2.x's own decision prompt starts "You are a smart memory manager". */
const DECISION_PROMPT = /memory management system|smart memory manager/i;

const messagesOf = (req: ChatRequest) => (Array.isArray(req.body?.messages) ? req.body.messages : []);
const hasSystemRole = (req: ChatRequest) => messagesOf(req).some((m) => m.role === "system");
const isDecisionCall = (req: ChatRequest) => DECISION_PROMPT.test(req.system) || req.user.includes("New facts:");

/** The JSON array that follows `label` in `text`, or undefined. */
function jsonArrayAfter(text: string, label: string): unknown[] | undefined {
  const at = text.indexOf(label);
  const start = at < 0 ? -1 : text.indexOf("[", at + label.length);
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) {
        try {
          const value = JSON.parse(text.slice(start, i + 1));
          return Array.isArray(value) ? value : undefined;
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

/** The new facts of a memwasm update-decision prompt ("New facts:\n[...]"). */
const newFactsOf = (req: ChatRequest): string[] => (jsonArrayAfter(req.user, "New facts:") ?? []).map(String);

/** mem0 v3's MockLLM reply: `{memory: [{id: "0", text, attributed_to: "user"}]}`, where `text` is the
 * "## New Messages" section of the first user message, or `fallback` when there is none. */
function v3Reply(req: ChatRequest, fallback: string): string {
  const userMsg = messagesOf(req).find((m) => m.role === "user");
  const content = typeof userMsg?.content === "string" ? userMsg.content : "";
  const newMsgMatch = content.match(/## New Messages\n([\s\S]*?)(?=\n##|$)/);
  const extracted = newMsgMatch ? newMsgMatch[1].trim() : fallback;
  return JSON.stringify({ memory: [{ id: "0", text: extracted, attributed_to: "user" }] });
}

/** memwasm's decision call, which mem0 v3 does not make, answered the way v3 behaves (additive: every
 * extracted memory is added): ADD for every new fact. */
const addEveryNewFact = (req: ChatRequest) =>
  JSON.stringify({ memory: newFactsOf(req).map((text) => ({ text, event: "ADD" })) });

/** Strict mode (`node run.mjs --strict`, env MEM0_OSS_STRICT=1): no answer is scripted for a call mem0 does not
 * make. A v3 file's mock gives every call its one reply, memwasm's decision call included. */
const STRICT = process.env.MEM0_OSS_STRICT === "1";
const isScriptedDecision = (req: ChatRequest) => !STRICT && isDecisionCall(req);

export const mem0Mock = {
  /** MockEmbedder / OpenAIEmbedder mock: `embed` and `embedBatch` give MOCK_EMBEDDING for every text. */
  embedder(vector: number[] = MOCK_EMBEDDING): Rule {
    return { kind: "embedding", vector };
  },

  /** mem0 v3's content-based MockLLM (memory.add / memory.crud / memory.init): every call (mem0 v3 makes one
   * per add()) gets `{memory: [{id: "0", text: <"## New Messages" section, else fallback>, attributed_to: "user"}]}`. */
  v3ContentLLM(fallback: string): Rule {
    return {
      kind: "chat",
      reply: (req: ChatRequest) => (isScriptedDecision(req) ? addEveryNewFact(req) : v3Reply(req, fallback)),
    };
  },

  /** mem0 v3's constant MockLLM (memory.validation): every call gets `reply`. */
  v3ConstantLLM(reply: unknown): Rule {
    return {
      kind: "chat",
      reply: (req: ChatRequest) => (isScriptedDecision(req) ? addEveryNewFact(req) : JSON.stringify(reply)),
    };
  },

  /** mem0 v2's content-based MockLLM: a call with a system message (mem0 2.x's fact extraction) gets
   * `{facts: [fact]}`; one without (mem0 2.x sends its update-decision prompt as a lone user message), and
   * memwasm's decision call, get `{memory: [{id: "new", event: "ADD", text: fact, old_memory: "", new_memory: fact}]}`. */
  v2ContentLLM(fact: string): Rule {
    return {
      kind: "chat",
      reply: (req: ChatRequest) =>
        hasSystemRole(req) && !isDecisionCall(req)
          ? JSON.stringify({ facts: [fact] })
          : JSON.stringify({ memory: [{ id: "new", event: "ADD", text: fact, old_memory: "", new_memory: fact }] }),
    };
  },

  /** A provider failure: every chat request answered with `status` and an error whose message is `message`. */
  failingLLM(status: number, message: string): Rule {
    return { kind: "chat", status, message };
  },
};

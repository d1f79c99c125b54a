// The types of memwasm/openai-agents against the real SDK's: a MemwasmSession is a Session that run() takes.
import { Agent, run, type AgentInputItem, type Session } from "@openai/agents";
import { Memory } from "memwasm";
import { MemwasmSession, memorySession, type MemwasmSessionOptions } from "memwasm/openai-agents";

declare const memory: Memory;
const options: MemwasmSessionOptions = { userId: "alice", sessionId: "chat-1", maxTokens: 3000, keepLast: 6 };
const session: Session = new MemwasmSession(memory, options);
const other: MemwasmSession = memorySession(memory, { agentId: "bot", maxTokens: 500 });
const agent = new Agent({ name: "a", instructions: "Help." });

export async function check(): Promise<void> {
  await run(agent, "hello", { session });
  const items: AgentInputItem[] = await other.getItems(2);
  await other.addItems(items);
  const popped: AgentInputItem | undefined = await other.popItem();
  await other.clearSession();
  const id: string = await session.getSessionId();
  void [popped, id];
}

// @ts-expect-error maxTokens is required
new MemwasmSession(memory, { userId: "alice" });
// @ts-expect-error the options are a scope, not a string
new MemwasmSession(memory, "alice");
// @ts-expect-error addItems takes items
void other.addItems("hello");

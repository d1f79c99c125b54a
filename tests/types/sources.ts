// Type tests for provenance in pkg/index.d.ts: messages with their ids, conversation and time, add()'s
// idempotencyKey and replayed, and sources() (each `@ts-expect-error` fails the check if its line compiles).
// Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type { AddResult, MemorySource, Message } from "../../pkg/index.js";

export async function provenance(memory: Memory): Promise<string[]> {
  const said: Message[] = [
    { role: "user", content: "I live in Lyon", id: "msg-1", conversationId: "chat-7", createdAt: "2024-05-01T09:00:00Z" },
    { role: "assistant", content: "Noted" },
  ];
  const added: AddResult = await memory.add(said, { userId: "u", idempotencyKey: "chat-7:msg-1" });
  const replayed: boolean | undefined = added.replayed;
  const sources: MemorySource[] = await memory.sources(added.results[0].id);
  const first = sources[0];
  const event: "ADD" | "UPDATE" = first.event;
  const optional: (string | undefined)[] = [first.conversationId, first.createdAt, first.historyId];
  // @ts-expect-error a message id is a string
  const numbered: Message = { role: "user", content: "x", id: 7 };
  // @ts-expect-error the key is a string
  await memory.add("x", { userId: "u", idempotencyKey: 1 });
  void [replayed, event, optional, numbered];
  return [first.id, first.role, first.excerpt, first.recordedAt];
}

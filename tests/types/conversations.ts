// Type tests for message-by-message memory in pkg/index.d.ts: addMessage / flushGroup, conversation metadata,
// deleteMemories and the boundary config (each `@ts-expect-error` fails the check if its line compiles).
// Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type {
  AddMessageResult,
  BoundaryCause,
  ConversationMeta,
  ConversationMetaInput,
  ConversationMetaUpdate,
  DeleteMemoriesResult,
  ExtractedMemory,
  MemoryConfig,
  MessageInput,
  PendingMessage,
  WarningCode,
} from "../../pkg/index.js";

export function configs(): Memory {
  const config: MemoryConfig = { boundary: { maxGapMinutes: 45, maxMessages: 20, maxTokens: 4000, llm: false } };
  // @ts-expect-error maxGapMinutes is a number
  new Memory({ boundary: { maxGapMinutes: "30m" } });
  // @ts-expect-error unknown boundary setting
  new Memory({ boundary: { maxGap: 30 } });
  return new Memory(config);
}

export async function messages(memory: Memory): Promise<number> {
  const message: MessageInput = {
    messageId: "msg_001",
    createTime: "2025-01-15T10:00:00+00:00",
    sender: "user_001",
    content: "Let's discuss the technical solution",
    groupId: "group_123",
    groupName: "Project Discussion Group",
    senderName: "John",
    role: "user",
    referList: ["msg_000"],
  };
  const result: AddMessageResult = await memory.addMessage(message);
  await memory.addMessage({ messageId: "m2", createTime: "2025-01-15T10:01:00Z", sender: "u", content: "hi", groupId: null });
  const status: "accumulated" | "extracted" = result.status;
  const pending: PendingMessage[] = result.pendingMessages;
  const extracted: ExtractedMemory | undefined = result.memories[0];
  const cause: BoundaryCause | undefined = result.episodes[0]?.cause;
  const warning: WarningCode | undefined = result.warnings[0]?.code;
  // @ts-expect-error a message needs a createTime
  await memory.addMessage({ messageId: "m", sender: "u", content: "x" });
  // @ts-expect-error role is user or assistant
  await memory.addMessage({ ...message, role: "system" });
  // @ts-expect-error no memoryType on a message
  await memory.addMessage({ ...message, memoryType: "episodic" });
  const flushed: AddMessageResult = await memory.flushGroup("group_123");
  // @ts-expect-error flushGroup takes a group id
  await memory.flushGroup({ groupId: "group_123" });
  return `${status}${pending.length}${extracted?.memoryType}${cause}${warning}`.length + flushed.count + Number(result.duplicate);
}

export async function meta(memory: Memory): Promise<string> {
  const input: ConversationMetaInput = {
    version: "1.0.0",
    scene: "group_chat",
    sceneDesc: { description: "Project discussion group chat", type: "project_discussion" },
    name: "Engineering Team",
    groupId: "group_123",
    createdAt: "2025-01-15T10:00:00Z",
    userDetails: { alice: { fullName: "Alice Smith", role: "user", customRole: "Tech Lead", extra: { team: "api" } } },
    tags: ["engineering"],
  };
  const saved: ConversationMeta = await memory.saveConversationMeta(input);
  const got: ConversationMeta | null = await memory.getConversationMeta("group_123");
  await memory.getConversationMeta();
  // @ts-expect-error scene is assistant or group_chat
  await memory.saveConversationMeta({ ...input, scene: "meeting" });
  // @ts-expect-error a meta needs a name
  await memory.saveConversationMeta({ version: "1", scene: "assistant", sceneDesc: {}, createdAt: "2025-01-15T10:00:00Z" });
  const updated: ConversationMetaUpdate = await memory.updateConversationMeta({ groupId: "group_123", name: "New name", tags: [] });
  // @ts-expect-error scene cannot be updated
  await memory.updateConversationMeta({ groupId: "group_123", scene: "assistant" });
  return `${saved.id}${got?.isDefault}${updated.updatedFields.join()}`;
}

export async function deletes(memory: Memory): Promise<number> {
  const result: DeleteMemoriesResult = await memory.deleteMemories({ userId: "user_123", groupId: "group_456" });
  await memory.deleteMemories({ eventId: "evt_001" });
  // @ts-expect-error deleteMemories takes eventId, userId and groupId only
  await memory.deleteMemories({ runId: "r" });
  // @ts-expect-error the filters are named
  const wrong: DeleteMemoriesResult["filters"] = ["runId"];
  return result.count + (result.left ?? 0) + result.filters.length + wrong.length;
}

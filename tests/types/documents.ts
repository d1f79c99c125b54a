// Type tests for document ingestion in pkg/index.d.ts (each `@ts-expect-error` fails the check if its line
// compiles). Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type { IngestDiscardReason, IngestedChunk, IngestOptions, IngestResult, MemoryType } from "../../pkg/index.js";

export async function ingest(memory: Memory): Promise<number> {
  const options: IngestOptions = { userId: "u", sessionId: "s1", memoryTypeHint: "semantic" };
  const result: IngestResult = await memory.ingest("# Notes\n\nThe service is small.", options);
  await memory.ingest("text", { agentId: "a", runId: "r", sessionId: "s2" });
  // @ts-expect-error sessionId is required
  await memory.ingest("text", { userId: "u" });
  // @ts-expect-error unknown memory type
  await memory.ingest("text", { userId: "u", sessionId: "s", memoryTypeHint: "habit" });
  // @ts-expect-error unknown option
  await memory.ingest("text", { userId: "u", sessionId: "s", metadata: {} });
  // @ts-expect-error the text is a string
  await memory.ingest(["text"], { userId: "u", sessionId: "s" });
  const chunk: IngestedChunk = result.chunks[0];
  const type: MemoryType = chunk.memoryType;
  const reason: IngestDiscardReason | undefined = chunk.reason;
  // @ts-expect-error reasons are LOW_IMPORTANCE or DUPLICATE
  const other: IngestDiscardReason = "TOO_SHORT";
  const id: string | undefined = chunk.id;
  const total: number = result.stored + result.discarded;
  const stored: boolean = chunk.stored;
  return [chunk.tokens, chunk.importance, total].length + [type, reason, other, id, stored].length;
}

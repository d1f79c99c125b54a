// Type tests for memory.importConversations (each `@ts-expect-error` fails the check if its line compiles). Run
// by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type { ImportConversationsProgress, ImportDryRunReport, ImportFormat, ImportReport } from "../../pkg/index.js";

export async function imported(memory: Memory, file: Blob, text: string): Promise<ImportReport> {
  const controller = new AbortController();
  const seen: ImportConversationsProgress[] = [];
  const dry: ImportDryRunReport = await memory.importConversations(text, { userId: "alice", dryRun: true });
  const calls: number = dry.modelCalls;
  const report: ImportReport = await memory.importConversations(file, {
    userId: "alice", format: "chatgpt", chunkMessages: 10, signal: controller.signal, onProgress: (p) => void seen.push(p),
  });
  const format: ImportFormat = report.format;
  const skipped: string[] = report.skipped.map((s) => `${s.conversationId}: ${s.why}`);
  const done: number = seen[0]?.messages.done ?? 0;
  void [calls, format, skipped, done];
  await memory.importConversations(new Uint8Array(0));
  await memory.importConversations([{ mapping: {} }], { agentId: "bot", infer: false });
  // @ts-expect-error formats are chatgpt, claude, mem0, memwasm or auto
  await memory.importConversations(text, { format: "gemini" });
  // @ts-expect-error the option is chunkMessages
  await memory.importConversations(text, { chunk_messages: 5 });
  // @ts-expect-error a dry run's report has no replayed count
  void (await memory.importConversations(text, { dryRun: true })).replayed;
  return report;
}

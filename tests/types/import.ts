// Type tests for importMemories' and reembed's options (each `@ts-expect-error` fails the check if its line compiles). Run
// by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type { ImportOptions, ImportProgress, ImportResult, MemoryErrorCode, ReembedResult, WarningCode } from "../../pkg/index.js";

export async function typed(memory: Memory, jsonl: string): Promise<ImportResult> {
  await memory.importMemories(jsonl);
  const controller = new AbortController();
  const seen: ImportProgress[] = [];
  const options: ImportOptions = { onProgress: (p) => void seen.push(p), signal: controller.signal };
  const phase: "read" | "embed" | "write" | "index" | undefined = seen[0]?.phase;
  const aborted: MemoryErrorCode = "ABORTED";
  const notEmbedded: string | undefined = (await memory.importMemories(jsonl)).warnings?.[0]?.code;
  void [phase, aborted, notEmbedded];
  // @ts-expect-error the signal is an AbortSignal, not its controller
  await memory.importMemories(jsonl, { signal: controller });
  // @ts-expect-error onProgress gets {phase, done, total}
  await memory.importMemories(jsonl, { onProgress: (p: string) => p });
  return memory.importMemories(jsonl, options);
}

export async function reembedded(memory: Memory): Promise<number> {
  const changed: MemoryErrorCode & WarningCode = "EMBEDDING_MODEL_CHANGED";
  const result: ReembedResult = await memory.reembed({ onProgress: (p) => void p.done, signal: AbortSignal.timeout(1000) });
  const warned: string | undefined = result.warnings?.[0]?.code;
  void [changed, warned];
  // @ts-expect-error reembed takes importMemories' options, no others
  await memory.reembed({ batch: 10 });
  return (await memory.reembed()).memories;
}

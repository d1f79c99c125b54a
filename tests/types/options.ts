// Type tests for read options, warnings and the MemoryError class in pkg/index.d.ts (each `@ts-expect-error`
// fails the check if its line compiles). Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory, MemoryError } from "../../pkg/index.js";
import type { AddWarning, MemoryErrorCode, WarningCode } from "../../pkg/index.js";

export async function typed(memory: Memory): Promise<number> {
  await memory.search("q", { userId: "u", topK: 3 });
  await memory.getAll({ userId: "u", topK: 3 });
  await memory.recall("q", { userId: "u", limit: 3 });
  await memory.deleteAll({ userId: "u", filters: { category: "work" } });
  // @ts-expect-error getAll takes no threshold
  await memory.getAll({ userId: "u", threshold: 0.5 });
  // @ts-expect-error deleteAll takes no limit
  await memory.deleteAll({ userId: "u", limit: 3 });

  await memory.add("hi", { userId: "u", pipeline: "additive" });
  new Memory({ pipeline: "additive", nearDuplicate: 0.9, llm: { provider: "none" }, embedder: { provider: "none" } });
  // @ts-expect-error the pipelines are a closed set
  await memory.add("hi", { userId: "u", pipeline: "curated" });
  // @ts-expect-error nearDuplicate is a number or a boolean
  new Memory({ nearDuplicate: "0.9" });
  const { warnings } = await memory.add("hi", { userId: "u" });
  const first: AddWarning | undefined = warnings[0];
  const code: WarningCode | undefined = first?.code;
  const cause: MemoryErrorCode | undefined = first?.cause;
  // @ts-expect-error warning codes are a closed set
  const wrong: WarningCode = "SOMETHING_ELSE";

  try {
    await memory.get("id");
  } catch (error) {
    if (error instanceof MemoryError) {
      const known: MemoryErrorCode = error.code;
      return (error.status ?? 0) + known.length + String(code ?? cause ?? wrong).length;
    }
  }
  return 0;
}

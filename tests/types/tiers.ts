// Type tests for the memory tiers in pkg/index.d.ts (each `@ts-expect-error` fails the check if its line
// compiles). Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory, MemoryContext, countTokens } from "../../pkg/index.js";
import type { BackgroundChange, BackgroundError, ContextResult, DreamResult, Injection, JournalDay } from "../../pkg/index.js";

export async function tiers(memory: Memory): Promise<string> {
  const window: MemoryContext = memory.context({ userId: "u", maxTokens: 2000, keepLast: 4 });
  const pushed: ContextResult = await window.push([{ role: "user", content: "hi" }]);
  const summary: string | null = pushed.summary;
  // @ts-expect-error maxTokens is required
  memory.context({ userId: "u" });
  await memory.flush("hello", { userId: "u" });
  await memory.idle();
  memory.on("change", (event: BackgroundChange) => event.results.length);
  memory.on("error", (event: BackgroundError) => event.error.code);
  // @ts-expect-error only "change" and "error"
  memory.on("done", () => {});
  const days: JournalDay[] = await memory.journals({ userId: "u", since: "2025-01-01" });
  const today: string | null = await memory.journal({ userId: "u", date: "2025-01-02" });
  const dreamt: DreamResult = await memory.dream({ userId: "u", lookbackDays: 2 });
  const profile = await memory.coreProfile({ userId: "u" });
  const diary = await memory.dreamDiary({ userId: "u" });
  const block: Injection = await memory.formatForInjection({ userId: "u", maxTokens: 500 });
  // @ts-expect-error maxTokens is a number
  await memory.formatForInjection({ userId: "u", maxTokens: "500" });
  const counted: number = countTokens("text");
  const exact = new Memory({ countTokens: (text: string) => text.length, background: { debounceMs: 500, concurrency: 1 } });
  return `${summary}${days.length}${today}${dreamt.reason}${profile?.markdown}${diary.length}${block.text}${counted}${exact}`;
}

// The memory tiers: the context window, the background writer, journals, dream and injection.

/** `memory.context(…)`: a scope, the window's token budget and the turns always kept verbatim. */
export interface ContextOptions extends Scope {
  /** Most tokens the returned messages take (a whole number ≥ 1). Required. */
  maxTokens: number;
  /** Newest turns never folded into the summary (a whole number ≥ 1). Default 6. */
  keepLast?: number;
}

/** What `MemoryContext.push` returns. */
export interface ContextResult {
  /** What to send to the model: `[summary as a system message, …the last turns]`, or the turns as they are. */
  messages: Message[];
  /** The running summary, `null` until the window first overflowed. */
  summary: string | null;
  /** Turns this push folded into the summary (0 when everything fitted). */
  summarized: number;
  /** Tokens of `messages` as the memory counts them (role + content + 4 per message); never over `maxTokens`. */
  totalTokens: number;
  /** `TURN_TRUNCATED` when the newest turn alone was over `maxTokens` and was cut to fit. Absent when empty. */
  warnings?: AddWarning[];
}

/** `journal(…)`: a scope and a day (`YYYY-MM-DD`, UTC; default today). */
export interface JournalOptions extends Scope {
  date?: string;
}

/** `journals(…)`: a scope and the first day listed (`YYYY-MM-DD`; default every day). */
export interface JournalsOptions extends Scope {
  since?: string;
}

/** One day of a scope's journal. */
export interface JournalDay {
  date: string;
  /** Messages journaled that day. */
  turns: number;
  markdown: string;
  /** MD5 of `markdown`: what `dream` remembers having consolidated. */
  hash: string;
  /** True when a dream consolidated the journal as it is now. */
  consolidated: boolean;
}

/** `dream(…)`: a scope and how many days before today's journals are read (default 1). */
export interface DreamOptions extends Scope {
  lookbackDays?: number;
}

/** A scope's core profile: the Markdown document `dream` keeps (like an agent's MEMORY.md). */
export interface CoreProfile {
  markdown: string;
  updatedAt: string;
}

/** What `dream` did. */
export interface DreamResult {
  /** False when no journal in the window was new: no LLM call was made. */
  dreamed: boolean;
  /** The journal days consolidated. */
  journals: string[];
  profile: CoreProfile | null;
  /** The memory changes applied through the ADD / UPDATE / DELETE decision, with history. */
  results: MemoryEvent[];
  warnings: AddWarning[];
  /** The model's account of what changed and why. */
  reason: string;
}

/** One dream, as the dream diary keeps it. */
export interface DreamDiaryEntry {
  at: string;
  journals: string[];
  reason: string;
  profileChanged: boolean;
  events: MemoryEvent[];
}

/** `formatForInjection(…)`: a scope and the block's token budget. */
export interface InjectionOptions extends Scope {
  maxTokens: number;
}

/** What `formatForInjection` returns. */
export interface Injection {
  /** The `<memory>` block (core profile, pinned and procedural memories, then the most important), or `""`. */
  text: string;
  /** Tokens of `text`; never more than `maxTokens`. */
  totalTokens: number;
  /** True when (part of) the core profile is in `text`. */
  profile: boolean;
  memories: MemoryItem[];
}

/** `background` in the config: the writer behind `flush()`. Retries follow `retry`: one budget per model call, so
 * a batch whose model call failed after its HTTP retries (or was refused with a 4xx) is not run again. */
export interface BackgroundConfig {
  /** Turns of a scope arriving within this many ms of each other go to one `add()`. Default 2000. */
  debounceMs?: number;
  /** Scopes written at once (1 to 16). Default 2. */
  concurrency?: number;
}

/** The `change` event: a flushed batch was added. */
export interface BackgroundChange {
  scope: Scope;
  results: MemoryEvent[];
  warnings: AddWarning[];
}

/** The `error` event: a flushed batch failed after every retry; its turns were dropped (here, to keep), or,
 * with `kept`, wait for the next flush. */
export interface BackgroundError {
  scope: Scope;
  /** A `MemoryError`: the code of the failure (e.g. `LLM_HTTP`, or `EXTRACTION_FAILED` for an unusable
   * reply), with `status` when a model service answered with one. */
  error: Error & { code: MemoryErrorCode | WarningCode; status?: number };
  /** Runs of the batch: 1 when its failure was not worth another run, else up to `retry.maxRetries + 1`. */
  attempts: number;
  /** True when a model or vector-store call failed for now (408, 429, 5xx, no answer) after its own retries:
   * the turns stay queued, and the next `flush()` (of any scope) or `Memory.open` runs them along. */
  kept: boolean;
  messages: Message[];
}

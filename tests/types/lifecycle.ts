// Type tests for the memory lifecycle API in pkg/index.d.ts: keys, TTL, pinning, decay, limits, soft deletion,
// pagination, memory types, search by vector, stats and the injectable clock (each `@ts-expect-error` fails
// the check if its line compiles). Run by scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type {
  DecayOptions,
  DecayResult,
  DeleteOptions,
  GetAllResult,
  MemoryConfig,
  MemoryItem,
  MemoryStats,
  MemoryType,
  SearchResult,
  ShareOptions,
  StoreOptions,
  StoreResult,
  VectorQuery,
} from "../../pkg/index.js";

export function configs(): Memory[] {
  let t = Date.parse("2025-01-01T00:00:00Z");
  const config: MemoryConfig = {
    now: () => t,
    importance: { minToStore: 0.3 },
    limits: { maxMemoriesPerScope: 200 },
  };
  t += 1000;
  const withDate = new Memory({ now: () => new Date(t), limits: {} });
  const unlimited = new Memory({ limits: { maxMemoriesPerScope: true } });
  const allFacts = new Memory({ limits: { maxFacts: null } });
  const fewFacts = new Memory({ limits: { maxFacts: 50, maxMemoriesPerScope: false } });
  // @ts-expect-error maxFacts is a number, a boolean or null
  new Memory({ limits: { maxFacts: "500" } });
  // @ts-expect-error now is a function, not a time
  new Memory({ now: 1_735_689_600_000 });
  // @ts-expect-error now returns a number or a Date
  new Memory({ now: () => "2025-01-01T00:00:00Z" });
  // @ts-expect-error minToStore is a number
  new Memory({ importance: { minToStore: "high" } });
  // @ts-expect-error unknown limit
  new Memory({ limits: { maxMemories: 3 } });
  return [new Memory(config), withDate, unlimited, allFacts, fewFacts];
}

export async function writes(memory: Memory): Promise<string> {
  const type: MemoryType = "event_log";
  const added = await memory.add("hi", { userId: "u", ttl: 60_000, memoryType: type, pinned: true, importance: 0.9 });
  await memory.add("hi", { userId: "u", infer: false, expiresAt: "2025-02-01T00:00:00Z" });
  // @ts-expect-error unknown memory type
  await memory.add("hi", { userId: "u", memoryType: "habit" });
  // @ts-expect-error ttl is milliseconds, a number
  await memory.add("hi", { userId: "u", ttl: "1h" });
  // @ts-expect-error expiresAt is an ISO 8601 string
  await memory.add("hi", { userId: "u", expiresAt: new Date() });

  const options: StoreOptions = { agentId: "a", ttl: 0, embedding: [0.1, 0.2], metadata: { source: "form" } };
  const stored: StoreResult = await memory.store("reflection:1", "Ask first", options);
  const event: "ADD" | "UPDATE" = stored.event;
  // @ts-expect-error store's event is never DELETE
  const deleted: StoreResult["event"] = "DELETE";
  // @ts-expect-error store needs a value
  await memory.store("key", { userId: "u" });
  // @ts-expect-error store takes no filters
  await memory.store("key", "value", { userId: "u", filters: { a: 1 } });
  // @ts-expect-error a store embedding is a plain number array
  await memory.store("key", "value", { userId: "u", embedding: "0.1,0.2" });

  const item: MemoryItem = await memory.getByKey("reflection:1", { agentId: "a" });
  const fields: [MemoryType, number, boolean, string?, string?, string?, string?, string?] = [
    item.memoryType,
    item.importance,
    item.pinned,
    item.expiresAt,
    item.key,
    item.deletedAt,
    item.lastAccessedAt,
    item.decayedAt,
  ];
  // @ts-expect-error expiresAt may be absent
  const expires: string = item.expiresAt;
  await memory.deleteByKey("reflection:1", { agentId: "a" });
  const { results: reflections } = await memory.reflections({ agentId: "a" });
  const share: ShareOptions = { from: { agentId: "a" }, to: { agentId: "b" }, pattern: "lesson_*" };
  const { copied } = await memory.share(share);
  // @ts-expect-error share needs a pattern
  await memory.share({ from: { agentId: "a" }, to: { agentId: "b" } });
  return `${added.results.length}${event}${deleted}${fields.length}${expires}${reflections.length}${copied}`;
}

export async function forgetting(memory: Memory): Promise<number> {
  const pinned: MemoryItem = await memory.pin("id");
  await memory.pin("id", false);
  // @ts-expect-error pinned is a boolean
  await memory.pin("id", "yes");
  const decay: DecayOptions = { userId: "u", halfLifeDays: 14, forgetBelow: 0.1 };
  const result: DecayResult = await memory.decay(decay);
  await memory.decay();
  // @ts-expect-error halfLifeDays is a number
  await memory.decay({ halfLifeDays: "30" });
  const { purged } = await memory.purgeExpired();
  await memory.purgeExpired({ runId: "r" });
  const stats: MemoryStats = await memory.stats({ userId: "u" });
  const all: MemoryStats = await memory.stats();
  const semantic: number = stats.byType.semantic + stats.byType.event_log + stats.keywordOnly;
  const scoped: string | undefined = all.byScope[0]?.userId;
  // @ts-expect-error byType has only the memory types
  stats.byType.habit;
  return pinned.importance + result.decayed + result.forgotten + purged + semantic + all.expired + Number(scoped);
}

export async function reads(memory: Memory): Promise<number> {
  const soft: DeleteOptions = { soft: true };
  await memory.delete("id", soft);
  await memory.delete("id");
  await memory.restore("id");
  await memory.deleteAll({ userId: "u", soft: true });
  // @ts-expect-error soft is a boolean
  await memory.delete("id", { soft: "yes" });

  const page: GetAllResult = await memory.getAll({ userId: "u", limit: 10, offset: 20, includeDeleted: true });
  const more: boolean = page.hasMore;
  await memory.getAll({ userId: "u", memoryTypes: ["procedural", "profile"] });
  // @ts-expect-error memoryTypes is a list
  await memory.getAll({ userId: "u", memoryTypes: "semantic" });
  // @ts-expect-error search takes no offset
  await memory.search("q", { userId: "u", offset: 10 });
  // @ts-expect-error getAll has no soft option
  await memory.getAll({ userId: "u", soft: true });

  const query: VectorQuery = { embedding: new Float32Array(64) };
  const byVector: SearchResult = await memory.search(query, { userId: "u", memoryTypes: ["semantic"] });
  await memory.search({ embedding: [0.1, 0.2] }, { userId: "u", limit: 3 });
  // @ts-expect-error a vector query is {embedding}
  await memory.search({ vector: [0.1] }, { userId: "u" });
  await memory.recall("q", { userId: "u", memoryTypes: ["procedural"] });
  return page.totalCount + byVector.totalCount + Number(more);
}

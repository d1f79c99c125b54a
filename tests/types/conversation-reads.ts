// Type tests for the reads of conversation memories and compression in pkg/index.d.ts:
// getAll as a fetch by type, the search options (time range, radius, currentTime, agentic), compress
// (each `@ts-expect-error` fails the check if its line compiles). Run by scripts/suites/25-types.sh.
import { Memory } from "../../pkg/index.js";
import type {
  CompressOptions,
  CompressResult,
  CompressedSession,
  GetAllOptions,
  GetAllResult,
  SearchMethod,
  SearchOptions,
  SearchResult,
  WarningCode,
} from "../../pkg/index.js";

export async function fetchByType(memory: Memory): Promise<number> {
  const options: GetAllOptions = {
    groupId: "group_123",
    memoryType: "episodic",
    limit: 40,
    offset: 0,
    startTime: "2025-01-01T00:00:00Z",
    endTime: "2025-12-31T23:59:59+01:00",
    includeCompressed: true,
  };
  const page: GetAllResult = await memory.getAll(options);
  await memory.getAll({ userId: "u", groupId: "__all__", memoryType: "profile" });
  // @ts-expect-error memoryType is one type
  await memory.getAll({ groupId: "g", memoryType: ["episodic"] });
  // @ts-expect-error radius is a search option
  await memory.getAll({ groupId: "g", radius: 0.5 });
  // @ts-expect-error the conversation API's type names are not the library's
  await memory.getAll({ groupId: "g", memoryType: "episodic_memory" });
  return page.totalCount + Number(page.hasMore);
}

export async function search(memory: Memory): Promise<string> {
  const options: SearchOptions = {
    groupId: "group_123",
    method: "agentic",
    memoryTypes: ["episodic", "event_log"],
    topK: 10,
    startTime: "2025-01-01T00:00:00Z",
    endTime: "2025-12-31T23:59:59Z",
    radius: 0.6,
    currentTime: "2025-06-01T00:00:00Z",
    includeCompressed: false,
  };
  const found: SearchResult = await memory.search("coffee preference", options);
  const method: SearchMethod = found.method;
  const queries: string[] = found.queries ?? [];
  const warning: WarningCode | undefined = found.warnings?.[0]?.code;
  const agentic: WarningCode = "AGENTIC_FAILED";
  // @ts-expect-error radius is a number
  await memory.search("x", { groupId: "g", radius: "0.6" });
  // @ts-expect-error agentic is a search method, not a recall one
  await memory.recall("x", { userId: "u", method: "agentic" });
  // @ts-expect-error currentTime is a string
  await memory.search("x", { groupId: "g", currentTime: new Date() });
  return `${method}${queries.join()}${warning}${agentic}`;
}

export async function compress(memory: Memory): Promise<number> {
  const options: CompressOptions = { groupId: "group_123", threshold: 10, sessionsToCompress: 5 };
  const result: CompressResult = await memory.compress(options);
  await memory.compress({ userId: "alice", threshold: 4 });
  const first: CompressedSession | undefined = result.compressed[0];
  const warning: WarningCode = "COMPRESSION_FAILED";
  // @ts-expect-error compress needs a threshold
  await memory.compress({ groupId: "g" });
  // @ts-expect-error compress takes no limit
  await memory.compress({ groupId: "g", threshold: 2, limit: 3 });
  return result.sessions + (first?.memoryIds.length ?? 0) + (first?.summaryId.length ?? 0) + warning.length;
}

// Type tests for sync (each `@ts-expect-error` fails the check if its line compiles). Run by
// scripts/suites/25-types.sh: tsc -p tests/types.
import { Memory } from "../../pkg/index.js";
import type { LiveSync, MemoryErrorCode, SyncApplied, SyncCurated, SyncOptions, SyncReport, SyncStatus } from "../../pkg/index.js";

export async function synced(memory: Memory, key: Uint8Array): Promise<SyncReport> {
  const options: SyncOptions = { url: "https://memwasm.example.workers.dev", token: "t", key, timeoutMs: 5000 };
  const report = await memory.sync(options);
  const moved: number = report.pushed + report.pulled + report.applied.reembedded + report.bytesSent;
  const status: SyncStatus = await memory.syncStatus();
  const logId: string | null = status.logId;
  const codes: MemoryErrorCode[] = ["SYNC_KEY", "SYNC_HTTP", "SYNC_NETWORK", "SYNC_ENTRY_INVALID"];
  const live: LiveSync = memory.syncLive({ ...options, intervalMs: 10_000, onSync: (r) => void r.pending, onError: (e) => void e.code });
  await live.stop();
  const outbox = await memory.syncOutbox(10);
  await memory.syncAcknowledge(outbox[0].clientId, outbox.map((entry) => entry.n));
  const applied: SyncApplied = await memory.syncApply("log", [{ seq: 1, clientId: "c", n: 1, data: "{}" }]);
  const curated: SyncCurated = await memory.syncCurate(applied.arrived);
  const changed: number = curated.judged + curated.updated + curated.deleted;
  const careful = await memory.sync({ ...options, compact: false, curate: true });
  const compactedUpTo: number | undefined = careful.compacted?.upTo;
  const rebuilt: boolean = careful.rebuilt;
  const judged: number | undefined = careful.curated?.judged;
  const deviceId: string = status.deviceId;
  const snapshot: string[] = await memory.syncSnapshot();
  void [moved, logId, codes, applied, changed, compactedUpTo, rebuilt, judged, deviceId, snapshot, careful.arrived.length];
  // @ts-expect-error compact is a boolean
  await memory.sync({ ...options, compact: "yes" });
  // @ts-expect-error syncCurate takes the ids as an array
  await memory.syncCurate("id");
  // @ts-expect-error the passphrase is a string
  await memory.sync({ url: "u", token: "t", passphrase: 42 });
  // @ts-expect-error a token is required
  await memory.sync({ url: "u" });
  return report;
}

/** Where sync stands on this memory's store (`memory.syncStatus()`). */
export interface SyncStatus {
  /** This instance's client id: every open of a store is a client of its own. */
  clientId: string;
  /** The store's device id, the same for every open of it: the server tracks how far each device applied its log. */
  deviceId: string;
  /** The server log this store follows; `null` before the first sync. */
  logId: string | null;
  /** The sequence number of the last log entry applied here. */
  checkpoint: number;
  /** Entries written here and not yet acknowledged by the server. */
  pending: number;
}

/** An entry waiting in the outbox (`memory.syncOutbox()`): `data` is plain JSON, to encrypt before it leaves. */
export interface SyncOutboxEntry {
  clientId: string;
  /** The client's entry number: numbers only grow, and the server stores each once. */
  n: number;
  data: string;
}

/** An entry as the server's log hands it back, `data` decrypted (`memory.syncApply()`); `null` for an entry of
 * the pulling client itself, which the server does not send back. */
export interface SyncPulledEntry {
  seq: number;
  clientId: string;
  n: number;
  data: string | null;
}

/** What `memory.syncApply()` changed here. */
export interface SyncApplied {
  /** Entries applied (those at or before the checkpoint are skipped). */
  entries: number;
  memories: number;
  deletes: number;
  history: number;
  graph: number;
  /** Memories whose vectors another embedding model made, embedded again here. */
  reembedded: number;
  checkpoint: number;
  /** Ids of the memories other devices' entries wrote here with a text new here: what `syncCurate` judges. */
  arrived: string[];
  warnings?: AddWarning[];
}

/** What `memory.syncCurate(ids)` changed: arrivals judged against older memories by the LLM. */
export interface SyncCurated {
  /** Arrived memories the LLM was asked about (those with older similar memories in their scope). */
  judged: number;
  /** Older memories rewritten with an arrived fact (an UPDATE in their history). */
  updated: number;
  /** Memories deleted: arrivals merged into or duplicating an older memory, and older ones the LLM deleted. */
  deleted: number;
  /** `DECISION_FAILED` when the LLM failed (those memories are left as they are), and the decision's warnings. */
  warnings?: AddWarning[];
}

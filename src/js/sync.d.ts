/** Where sync stands on this memory's store (`memory.syncStatus()`). */
export interface SyncStatus {
  /** This instance's client id: every open of a store is a client of its own. */
  clientId: string;
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
  warnings?: AddWarning[];
}

// Reading a database's raw object stores from a test page (page.html exposes `window.readStores`), the way
// a test checks what the library wrote. Nothing here creates a database or waits for good: after Chromium
// deleted a database it found corrupt (see harness.mjs) there is none, and a plain `indexedDB.open(name)`
// would then create an empty one (version 1, no stores), whose `transaction()` throws inside `onsuccess`,
// where no promise ever settles.

/** The database `name` as the browser holds it, or `null` when it holds none by that name (the upgrade
 * such an open needs is aborted, so nothing is created). Rejects on an error or a blocked open. */
export function openStored(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    let absent = false;
    request.onupgradeneeded = () => {
      absent = true;
      request.transaction.abort();
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = (event) => {
      event.preventDefault();
      absent ? resolve(null) : reject(request.error);
    };
    request.onblocked = () => reject(new Error(`opening "${name}" was blocked by another connection`));
  });
}

/** Reads `stores` of database `name` in one readonly transaction. `read(transaction)` issues the reads and
 * returns the object their `onsuccess` handlers fill; it is resolved once the transaction completes.
 * A database the browser does not hold resolves with `absent`. */
export async function readStores(name, stores, read, absent) {
  const database = await openStored(name);
  if (!database) return absent;
  try {
    return await new Promise((resolve, reject) => {
      const transaction = database.transaction(stores, "readonly"); // throws (rejects) on a missing store
      const out = read(transaction);
      transaction.oncomplete = () => resolve(out);
      transaction.onabort = () => reject(transaction.error ?? new Error(`reading ${stores} of "${name}" was aborted`));
    });
  } finally {
    database.close();
  }
}

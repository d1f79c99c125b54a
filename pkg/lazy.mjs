// A part of the package fetched on its first use rather than at import (docs/package.md).

import { MemoryError } from "./dist/errors.js";

/**
 * `load` (resolving with a module) wrapped to run once, on the first call of the returned function. A
 * failed load rejects with `NOT_IN_MODULE`, the load's own error as its `cause`, and leaves nothing
 * behind: the next call tries again. `what` names the part in the message.
 */
export function onFirstUse(load, what) {
  let loading;
  return () =>
    (loading ??= load().catch((error) => {
      loading = undefined;
      const why = `${what} could not be loaded (the next call that needs it tries again): ${error?.message ?? error}`;
      throw Object.assign(new MemoryError(why, "NOT_IN_MODULE"), { cause: error });
    }));
}

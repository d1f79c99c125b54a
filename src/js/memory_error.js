// The Error every failed call of memwasm rejects with (and the constructor throws): a stable `code`, and
// `status` for HTTP failures of a model service. Exported by the package, so `err instanceof MemoryError`
// works; wasm-bindgen copies this file next to the glue. The browser package loads two modules (core and
// full), each with its own copy of this file: both define the classes once, under a global symbol, so
// `instanceof` holds whichever module threw.
const classes = (globalThis[Symbol.for("memwasm.errors")] ??= define());

export const MemoryError = classes.MemoryError;

// What `add()` rejects with when the LLM cannot be reached (its HTTP error such as a 429, the network, a
// timeout, a host remembered down, the app's callback): a `MemoryError` with code `LLM_HTTP`, `LLM_NETWORK`,
// `LLM_TIMEOUT`, `LLM_UNAVAILABLE` or `LLM_CALLBACK`, under mem0's name.
export const LLMError = classes.LLMError;

function define() {
  class MemoryError extends Error {
    constructor(message, code, status) {
      super(message);
      this.name = "MemoryError";
      this.code = code;
      if (status !== undefined) this.status = status;
    }
  }
  class LLMError extends MemoryError {
    constructor(message, code, status) {
      super(message, code, status);
      this.name = "LLMError";
    }
  }
  return { MemoryError, LLMError };
}

// The Error every failed call of memwasm rejects with (and the constructor throws): a stable `code`, and
// `status` for HTTP failures of a model service. Exported by the package, so `err instanceof MemoryError`
// works; wasm-bindgen copies this file next to the glue.
export class MemoryError extends Error {
  constructor(message, code, status) {
    super(message);
    this.name = "MemoryError";
    this.code = code;
    if (status !== undefined) this.status = status;
  }
}

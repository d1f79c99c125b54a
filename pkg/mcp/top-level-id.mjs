// The top-level "id" of a JSON-RPC message read in pieces, found while the pieces pass and kept in a few
// bytes of state, so that a line too long to hold can still be answered at its request's id.

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c;
const OPENERS = new Set([0x7b, 0x5b]); // { [
const CLOSERS = new Set([0x7d, 0x5d]); // } ]
const BLANKS = new Set([0x20, 0x09, 0x0d, 0x0a]);
/** Longest id kept (bytes of its JSON text); a longer one is not looked for. */
const MAX_ID_BYTES = 256;

export class TopLevelId {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #expectKey = false; // at depth 1, after `{` or `,`
  #key = null; // bytes of the key being read, or null
  #lastKey = "";
  #value = null; // bytes of the id's value being read, or null
  /** The id found: a string or a number; undefined while none is. */
  id = undefined;

  /** Reads the next piece (a Buffer) of the message. Inside a string it neither keeps nor reads, it jumps to
   * the next `"` or backslash; each is searched for once per position passed, so a piece costs linear time. */
  push(bytes) {
    const next = { [QUOTE]: -1, [BACKSLASH]: -1 }; // the next one at or after `at`, once searched
    const find = (byte, at) => {
      if (next[byte] < at) {
        const found = bytes.indexOf(byte, at);
        next[byte] = found === -1 ? bytes.length : found;
      }
      return next[byte];
    };
    for (let at = 0; at < bytes.length; at++) {
      if (this.#inString && !this.#escaped && !this.#key && !this.#value) at = Math.min(find(QUOTE, at), find(BACKSLASH, at));
      if (at < bytes.length) this.#byte(bytes[at]);
    }
  }

  #byte(byte) {
    if (this.#value && (this.#inString || !BLANKS.has(byte))) this.#keep(byte);
    if (this.#inString) return this.#inStringByte(byte);
    if (byte === QUOTE) {
      this.#inString = true;
      if (this.#depth === 1 && this.#expectKey) [this.#key, this.#expectKey] = [[], false];
    } else if (OPENERS.has(byte)) {
      this.#value = null; // an object or array is no id
      this.#depth += 1;
      this.#expectKey = this.#depth === 1 && byte === 0x7b;
    } else if (CLOSERS.has(byte)) {
      if (this.#depth === 1) this.#finish(true);
      this.#depth -= 1;
    } else if (this.#depth === 1 && byte === COLON && this.#lastKey === "id") {
      this.#value = [];
    } else if (this.#depth === 1 && byte === COMMA) {
      this.#finish(true);
      this.#expectKey = true;
    }
  }

  #inStringByte(byte) {
    if (this.#key && this.#key.length < 4) this.#key.push(byte); // enough to tell "id" from longer keys
    if (this.#escaped) return void (this.#escaped = false);
    if (byte === BACKSLASH) return void (this.#escaped = true);
    if (byte !== QUOTE) return;
    this.#inString = false;
    if (this.#key) {
      this.#lastKey = Buffer.from(this.#key.slice(0, -1)).toString("latin1");
      this.#key = null;
    } else if (this.#value) this.#finish(false);
  }

  #keep(byte) {
    if (this.#value.length < MAX_ID_BYTES) this.#value.push(byte);
    else this.#value = null;
  }

  /** The id's value ends (`trailing`: at the `,` or `}` after it, which was kept too). */
  #finish(trailing) {
    if (!this.#value) return;
    const text = Buffer.from(trailing ? this.#value.slice(0, -1) : this.#value).toString("utf8");
    this.#value = null;
    try {
      const id = JSON.parse(text);
      if (typeof id === "string" || typeof id === "number") this.id = id;
    } catch {
      // not a string or number: no id
    }
  }
}

// The stdio transport of `memwasm mcp`: one JSON-RPC message per line on stdin, answers on stdout, as the
// MCP SDK's StdioServerTransport has it, with bounds. A line is held only up to MAX_LINE_BYTES: the rest of
// a longer one is dropped as it arrives, and the line is answered with PAYLOAD_TOO_LARGE at its request's
// id (found on the way, `top-level-id.mjs`). A JSON-RPC batch (an array) is answered with
// BATCH_NOT_SUPPORTED, a line that is not JSON with INVALID_JSON. Either way the next line is read. A message
// `intercept` answers (MCP 2026-07-28's per-request messages, `modern.mjs`) does not reach the SDK's server.

import process from "node:process";
import { TopLevelId } from "./top-level-id.mjs";

/** Most bytes of one line (one JSON-RPC message), as the SDK's own transport allows. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;

/** A JSON-RPC error response with our code in `data.code`. */
const failure = (id, code, dataCode, message) => ({ jsonrpc: "2.0", id, error: { code, message, data: { code: dataCode } } });

export class LineTransport {
  #held = []; // pieces of the current line, `#size` bytes in all
  #size = 0;
  #tooLong = null; // a TopLevelId while the rest of a line over the limit is skipped

  /** `schema`: the SDK's JSONRPCMessageSchema, which every message passes before the server sees it.
   * `intercept(message)`: a promise of the answer to a message it takes, or null to pass it to the server. */
  constructor(schema, { stdin = process.stdin, stdout = process.stdout, maxLineBytes = MAX_LINE_BYTES, intercept } = {}) {
    Object.assign(this, { schema, stdin, stdout, maxLineBytes, intercept });
    this.ondata = (chunk) => this.#read(chunk);
    this.onstdinerror = (error) => this.onerror?.(error);
  }

  async start() {
    this.stdin.on("data", this.ondata);
    this.stdin.on("error", this.onstdinerror);
  }

  #read(chunk) {
    for (let from = 0; from < chunk.length;) {
      const end = chunk.indexOf(NEWLINE, from);
      const piece = chunk.subarray(from, end === -1 ? chunk.length : end);
      this.#take(piece);
      if (end === -1) return;
      this.#lineEnded();
      from = end + 1;
    }
  }

  /** Holds `piece` of the current line, or passes it to the id finder once the line is over the limit. */
  #take(piece) {
    if (!this.#tooLong && this.#size + piece.length > this.maxLineBytes) {
      this.#tooLong = new TopLevelId();
      for (const held of this.#held) this.#tooLong.push(held);
      [this.#held, this.#size] = [[], 0];
    }
    if (this.#tooLong) {
      this.#tooLong.push(piece);
    } else if (piece.length) {
      this.#held.push(piece);
      this.#size += piece.length;
    }
  }

  #lineEnded() {
    if (this.#tooLong) {
      const id = this.#tooLong.id ?? null;
      this.#tooLong = null;
      const why = `the message exceeds the limit of ${this.maxLineBytes} bytes per line: send less in one call`;
      return void this.send(failure(id, INVALID_REQUEST, "PAYLOAD_TOO_LARGE", why));
    }
    const line = Buffer.concat(this.#held, this.#size).toString("utf8").replace(/\r$/, "");
    [this.#held, this.#size] = [[], 0];
    if (line.trim() !== "") this.#message(line);
  }

  #message(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      return void this.send(failure(null, PARSE_ERROR, "INVALID_JSON", `malformed JSON: ${error.message}`));
    }
    if (Array.isArray(message)) {
      const why = "JSON-RPC batches are not taken: send one message per line";
      return void this.send(failure(null, INVALID_REQUEST, "BATCH_NOT_SUPPORTED", why));
    }
    const checked = this.schema.safeParse(message);
    if (!checked.success) {
      const id = typeof message?.id === "string" || typeof message?.id === "number" ? message.id : null;
      return void this.send(failure(id, INVALID_REQUEST, "INVALID_REQUEST", "not a JSON-RPC 2.0 message"));
    }
    const answer = this.intercept?.(checked.data);
    if (answer) return void answer.then((response) => this.send(response));
    this.onmessage?.(checked.data);
  }

  send(message) {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close() {
    this.stdin.off("data", this.ondata);
    this.stdin.off("error", this.onstdinerror);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    [this.#held, this.#size, this.#tooLong] = [[], 0, null];
    this.onclose?.();
  }
}

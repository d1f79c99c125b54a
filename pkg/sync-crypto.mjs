// End-to-end encryption of sync entries with WebCrypto (browsers, Node ≥ 20, workerd): AES-256-GCM, a random
// 96-bit IV per entry, and the entry's place (client id and number) as additional data, so the server can
// neither read an entry nor move it to another place. The key is a raw 32-byte key the app holds, or comes
// from a passphrase through PBKDF2-SHA-256; it never leaves the device. The JSON is compressed first (zlib
// deflate through CompressionStream) when that makes it smaller.
import { MemoryError } from "./dist/errors.js";

/** Prefixes of `data` on the wire: encrypted (`e1.` + base64 of IV and ciphertext) or plain JSON (`p1.`); `e2.`
 * and `p2.` are the same with the JSON compressed first (`p2.` + base64 of the compressed bytes). `open` reads
 * all four: logs keep what older versions wrote. */
const SEALED = "e1.";
const PLAIN = "p1.";
const SEALED_PACKED = "e2.";
const PLAIN_PACKED = "p2.";
/** "deflate" (zlib: 6 bytes more than "deflate-raw", with a checksum) is in every runtime that has
 * CompressionStream; "deflate-raw" came to Node in 20.12 / 21.2. */
const PACKING = "deflate";
/** Most bytes a compressed entry may inflate to (an entry's JSON is about 96 KiB; one record can be larger): a
 * larger one is refused, so an entry cannot exhaust memory. Entries larger than this are not compressed. */
export const MAX_INFLATED_BYTES = 8 << 20;
/** PBKDF2 iterations for a passphrase (OWASP's 2023 figure for PBKDF2-HMAC-SHA256). */
export const PBKDF2_ITERATIONS = 600_000;

const subtle = () => {
  const api = globalThis.crypto?.subtle;
  if (!api) throw new MemoryError("sync: encryption needs WebCrypto (crypto.subtle), which this runtime lacks", "INVALID_CONFIG");
  return api;
};

const toBase64 = (bytes) => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};
const fromBase64 = (text) => {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

/** The AES-GCM key of `options` (`key`: 32 raw bytes, their base64, or a CryptoKey; `passphrase` with an
 * optional `salt`), or `null` when neither is given (entries then travel unencrypted). */
export async function syncKey({ key, passphrase, salt }) {
  if (key != null && passphrase != null) throw invalid("give `key` or `passphrase`, not both");
  if (key != null) {
    if (typeof CryptoKey !== "undefined" && key instanceof CryptoKey) return key;
    const bytes = typeof key === "string" ? decodeKey(key) : key instanceof Uint8Array ? key : null;
    if (bytes?.length !== 32) throw invalid("`key` must be 32 bytes (a Uint8Array, or their base64) or an AES-GCM CryptoKey");
    return subtle().importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
  }
  if (passphrase == null) return null;
  if (typeof passphrase !== "string" || passphrase.length < 8) throw invalid("`passphrase` must be a string of 8 or more characters");
  const material = await subtle().importKey("raw", new TextEncoder().encode(passphrase), "PBKDF2", false, ["deriveKey"]);
  const params = { name: "PBKDF2", hash: "SHA-256", iterations: PBKDF2_ITERATIONS, salt: new TextEncoder().encode(salt ?? "memwasm-sync/v1") };
  return subtle().deriveKey(params, material, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

function decodeKey(text) {
  try {
    return fromBase64(text);
  } catch {
    return null;
  }
}

const place = (clientId, n) => new TextEncoder().encode(`memwasm-sync/v1:${clientId}:${n}`);

/** `bytes` deflated, or `null` when that does not make them smaller (or they are too large to inflate back, or
 * the runtime has no CompressionStream). */
async function deflate(bytes) {
  if (typeof CompressionStream === "undefined" || bytes.length > MAX_INFLATED_BYTES) return null;
  const packed = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream(PACKING))).arrayBuffer());
  return packed.length < bytes.length ? packed : null;
}

/** The text `packed` inflates to; `SYNC_ENTRY_INVALID` when it is not deflate data or inflates past
 * `MAX_INFLATED_BYTES` (read chunk by chunk: no more than that is ever held). */
async function inflate(packed, seq) {
  if (typeof DecompressionStream === "undefined") throw entryError(`log entry ${seq} is compressed, and this runtime lacks DecompressionStream`);
  const reader = new Blob([packed]).stream().pipeThrough(new DecompressionStream(PACKING)).getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch {
      throw entryError(`log entry ${seq} is not valid compressed data`);
    }
    if (chunk.done) return text + decoder.decode();
    size += chunk.value.length;
    if (size > MAX_INFLATED_BYTES) {
      reader.cancel().catch(() => {});
      throw entryError(`log entry ${seq} inflates to more than ${MAX_INFLATED_BYTES} bytes`);
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}

/** `data` (an entry's JSON) as it goes on the wire: sealed with `key`, or marked plain without one; compressed
 * first when that is smaller. */
export async function seal(key, clientId, n, data) {
  const bytes = new TextEncoder().encode(data);
  const packed = await deflate(bytes);
  if (!key) return packed && 4 * Math.ceil(packed.length / 3) < bytes.length ? PLAIN_PACKED + toBase64(packed) : PLAIN + data;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await subtle().encrypt({ name: "AES-GCM", iv, additionalData: place(clientId, n) }, key, packed ?? bytes));
  const out = new Uint8Array(12 + sealed.length);
  out.set(iv);
  out.set(sealed, 12);
  return (packed ? SEALED_PACKED : SEALED) + toBase64(out);
}

/** The entry's JSON from the wire's `data`; `SYNC_KEY` when it does not open with `key` (another key, a changed
 * ciphertext or place), or when it is plain but a key was given, or sealed but none was; `SYNC_ENTRY_INVALID`
 * when its compressed JSON does not inflate (within `MAX_INFLATED_BYTES`). */
export async function open(key, { seq, clientId, n, data }) {
  const prefix = typeof data === "string" ? data.slice(0, 3) : "";
  if (prefix === PLAIN || prefix === PLAIN_PACKED) {
    if (key) throw keyError(`log entry ${seq} is not encrypted, but this device syncs with a key: the log was written without one`);
    if (prefix === PLAIN) return data.slice(3);
    let packed;
    try {
      packed = fromBase64(data.slice(3));
    } catch {
      throw entryError(`log entry ${seq} is not valid base64`);
    }
    return inflate(packed, seq);
  }
  if (prefix !== SEALED && prefix !== SEALED_PACKED) throw keyError(`log entry ${seq} is not a memwasm sync entry`);
  if (!key) throw keyError(`log entry ${seq} is encrypted: sync with the key (or passphrase) the other devices use`);
  let plain;
  try {
    const bytes = fromBase64(data.slice(3));
    plain = new Uint8Array(await subtle().decrypt({ name: "AES-GCM", iv: bytes.subarray(0, 12), additionalData: place(clientId, n) }, key, bytes.subarray(12)));
  } catch {
    throw keyError(`log entry ${seq} did not decrypt: it was written with another key, or changed on the way (nothing was applied)`);
  }
  return prefix === SEALED ? new TextDecoder().decode(plain) : inflate(plain, seq);
}

const invalid = (why) => new MemoryError(`sync: ${why}`, "INVALID_CONFIG");
const keyError = (why) => new MemoryError(`sync: ${why}`, "SYNC_KEY");
const entryError = (why) => new MemoryError(`sync: ${why}`, "SYNC_ENTRY_INVALID");

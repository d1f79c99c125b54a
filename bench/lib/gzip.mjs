// `gzip -9`'s size of a file, as scripts/build-pkg.sh and the size target measure it (zlib's level 9 where
// the gzip program is missing; the two differ by a few hundred bytes on the .wasm).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { constants, gzipSync } from "node:zlib";

/** The gzipped size of `file` (its bytes, when read already, as `bytes`). */
export function gzipSize(file, bytes = undefined) {
  try {
    return execFileSync("gzip", ["-9", "-c", file], { maxBuffer: 1 << 28 }).length;
  } catch {
    return gzipSync(bytes ?? readFileSync(file), { level: constants.Z_BEST_COMPRESSION }).length;
  }
}

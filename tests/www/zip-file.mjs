// A zip archive of named texts, each deflated (method 8), as ChatGPT's and Claude's exports come: local headers,
// the central directory and its end record, no zip64. For the www tests' file pickers.
import { crc32, deflateRawSync } from "node:zlib";

/** The bytes of a zip archive holding `files` (`{ "path/name": text }`). */
export function zipFile(files) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const raw = Buffer.from(text, "utf8");
    const data = deflateRawSync(raw);
    const path = Buffer.from(name, "utf8");
    // The fields a local header holds at these offsets, and a central directory entry 2 bytes further on.
    const fields = (header) => {
      header.writeUInt16LE(8, 8); // deflated; flags, time and date stay 0
      header.writeUInt32LE(crc32(raw), 14);
      header.writeUInt32LE(data.length, 18);
      header.writeUInt32LE(raw.length, 22);
      header.writeUInt16LE(path.length, 26);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    fields(local);
    locals.push(Buffer.concat([local, path, data]));
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    fields(entry.subarray(2));
    entry.writeUInt32LE(offset, 42);
    central.push(Buffer.concat([entry, path]));
    offset += 30 + path.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

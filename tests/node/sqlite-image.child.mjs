// Opens the SQLite file at argv[2] (which reads every row and prepares a fresh open image), prints
// "opened", closes the memory (which writes the image) and prints "closed". The parent kills it with SIGKILL
// at some point in between. With an export file as argv[3], it imports that file instead, prints
// "imported", and kills itself two seconds later without closing the memory.
import { readFileSync } from "node:fs";
import { Memory } from "memwasm";
import { imageConfig } from "./sqlite-image.support.mjs";

const memory = await Memory.open(imageConfig(process.argv[2]));
if (process.argv[3]) {
  await memory.importMemories(readFileSync(process.argv[3], "utf8"));
  process.stdout.write("imported\n");
  setTimeout(() => process.kill(process.pid, "SIGKILL"), 2000);
} else {
  process.stdout.write("opened\n");
  memory.close();
  process.stdout.write("closed\n");
}

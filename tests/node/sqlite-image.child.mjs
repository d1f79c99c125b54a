// Opens the SQLite file at argv[2] (which reads every row and prepares a fresh open image), prints
// "opened", closes the memory (which writes the image) and prints "closed". The parent kills it with SIGKILL
// at some point in between.
import { Memory } from "memwasm";
import { imageConfig } from "./sqlite-image.support.mjs";

const memory = await Memory.open(imageConfig(process.argv[2]));
process.stdout.write("opened\n");
memory.close();
process.stdout.write("closed\n");

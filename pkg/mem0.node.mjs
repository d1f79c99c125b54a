// `memwasm/mem0` (node condition): everything of index.node.mjs, with the Memory of mem0.mjs keeping its
// memories where mem0 keeps them: the SQLite file of mem0-files.node.mjs, opened on the first call with the
// package's SQLite storage (sqlite.mjs) and shared by the Memories of that file in this process. An explicit
// `storage` wins. Without a SQLite library on this Node the memories stay in RAM, with a startup warning.
import { resolve } from "node:path";
import { Memory as Base, MemoryError } from "./index.node.mjs";
import { mem0Memory, opensLater, startupWarning } from "./mem0.mjs";
import { chooseFile, mem0File } from "./mem0-files.node.mjs";
import { sqliteLibrary } from "./sqlite.mjs";

export * from "./index.node.mjs";
export const Memory = mem0Memory(Base, keep);

/** Where `settings` keeps its memories (see mem0Memory). */
function keep(settings) {
  const storage = settings.storage;
  if (storage) {
    if (!opensLater(storage)) return undefined;
    const path = storage.config?.path;
    return { file: typeof path === "string" ? resolve(path) : undefined, open: () => Base.open(settings) };
  }
  const path = mem0File(settings);
  return path === ":memory:" ? undefined : { file: path, open: () => openMem0File(path, settings) };
}

/** `settings` with its memories in the SQLite file at `path`. */
const inFile = (settings, path) => ({ ...settings, storage: { provider: "sqlite", config: { path } } });

/** The memory of mem0's file at `path`: memwasm's file there or beside it (a mem0 database is imported). */
async function openMem0File(path, settings) {
  try {
    await sqliteLibrary();
  } catch (error) {
    startupWarning(error.code, `memories are kept in RAM, not in ${path}, and are lost when the process ends: ${error.message}`);
    return new Base(settings);
  }
  const chosen = await chooseFile(path, settings, (file, lines) => importInto(file, lines, settings, path)).catch((error) => {
    if (error instanceof MemoryError) throw error;
    throw new MemoryError(`${path}: ${error.message} (the folder must be one this process may write)`, "STORAGE_UNAVAILABLE");
  });
  if (chosen.imported) {
    const { memories, history } = chosen.imported;
    startupWarning("MEM0_IMPORTED", `${path} holds mem0's database: it is left as it is, and its ${memories} memories and ${history} history records were imported into ${chosen.path}, where memories are kept from now on`);
  }
  return Base.open(inFile(settings, chosen.path));
}

/** Writes the export `lines` into a new memwasm file at `file`; a failure names mem0's file and the fix. */
async function importInto(file, lines, settings, mem0Path) {
  const memory = await Base.open(inFile(settings, file));
  try {
    await memory.importMemories(lines);
  } catch (error) {
    const fix = "configure the embedder that made them (its dimensions), or set vectorStore.config.dbPath to another file";
    throw new MemoryError(`mem0's memories in ${mem0Path} could not be imported (the file is unchanged): ${error.message}; ${fix}`, error.code ?? "STORAGE");
  } finally {
    memory.close();
    memory.free();
  }
}

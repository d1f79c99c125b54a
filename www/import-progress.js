// An import with a progress bar and a Cancel button, over `importMemories`' `onProgress` and `signal`.
// Cancel before the write commits leaves the store as it was (the library writes all or nothing); once
// the write has committed (the "index" phase) the import completes, so Cancel is hidden then.

const PHASES = { read: "Reading", embed: "Embedding", write: "Writing", index: "Indexing" };
const UNITS = { read: "lines", embed: "memories", write: "records", index: "memories" };
const ORDER = Object.keys(PHASES);

export class ImportProgress {
  constructor({ box, bar, text, cancel }) {
    Object.assign(this, { box, bar, text, cancel });
    this.controller = null;
    cancel.addEventListener("click", () => this.controller?.abort());
  }

  /** Imports `jsonl` into `memory`, showing each phase; resolves to the sentence it leaves shown. */
  async run(memory, jsonl) {
    this.controller = new AbortController();
    this.box.hidden = false;
    this.bar.hidden = this.cancel.hidden = false;
    this.bar.value = 0;
    this.text.textContent = "Reading the file…";
    try {
      const result = await memory.importMemories(jsonl, { signal: this.controller.signal, onProgress: (p) => this.show(p) });
      const noun = result.memories === 1 ? "memory" : "memories";
      this.text.textContent = `Imported ${result.memories} ${noun}.`;
    } catch (error) {
      if (error?.code !== "ABORTED") {
        this.box.hidden = true;
        throw error;
      }
      this.text.textContent = "Import cancelled: nothing was written; the memories are as they were.";
    } finally {
      this.controller = null;
      this.bar.hidden = this.cancel.hidden = true;
    }
  }

  /** One report: the bar spans the four phases, a quarter each; Cancel goes once the write has committed. */
  show({ phase, done, total }) {
    const step = ORDER.indexOf(phase);
    this.bar.value = (step + (total > 0 ? done / total : 1)) / ORDER.length;
    this.text.textContent = `${PHASES[phase]} ${done} of ${total} ${UNITS[phase]}…`;
    this.cancel.hidden = phase === "index";
  }
}

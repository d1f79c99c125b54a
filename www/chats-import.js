// The "Import from ChatGPT / Claude" pane: a data export's conversations.json (or the export's .zip) is read
// here, its format found by `memory.importConversations` itself; a dry run shows what the import will cost
// (conversations, messages, model calls) before anything is sent; Import shows a bar of the messages done and
// the conversations, messages and facts so far, and Cancel stops it between chunks (what was committed stays,
// and the next Import resumes: the chunks already in the memory are replayed without a model call).
// See docs/import.md.
import { hasLlm } from "./settings.js";
import { showError } from "./status.js";

const FORMATS = { chatgpt: "ChatGPT export", claude: "Claude export", mem0: "mem0 export", memwasm: "memwasm export" };
const SENTENCES = {
  IMPORT_FORMAT: "This file is not a conversations export this page can read; nothing was imported. The detail names the conversation.",
};
const plural = (n, one, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

export class ChatsImportPane {
  constructor({ form, estimate, cancel, box, bar, text, result, error, summary }, app) {
    Object.assign(this, { form, estimate, cancel, box, bar, text, result, error, summary, app });
    this.file = form.elements.namedItem("file");
    this.submit = form.querySelector('button[type="submit"]');
    this.bytes = null;
    this.controller = null;
    this.file.addEventListener("change", () => this.guard(() => this.estimateFile()));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.guard(() => this.importFile());
    });
    cancel.addEventListener("click", () => this.controller?.abort());
  }

  /** The options of every call: the page's user, and extraction only when a model is set. */
  options() {
    return { userId: this.app.settings.userId, infer: hasLlm(this.app.settings) };
  }

  async guard(action) {
    showError(this.error, null);
    try {
      await action();
    } catch (error) {
      showError(this.error, error, SENTENCES[error?.code]);
      this.summary.textContent = `error ${error?.code ?? "ERROR"}`;
    }
  }

  /** A file was chosen: reads it and shows the dry run's counts; Import waits for them. */
  async estimateFile() {
    this.submit.disabled = true;
    this.estimate.hidden = this.result.hidden = true;
    const file = this.file.files?.[0];
    this.bytes = file ? new Uint8Array(await file.arrayBuffer()) : null;
    if (!this.bytes) return;
    const dry = await this.app.memory.importConversations(this.bytes, { ...this.options(), dryRun: true });
    const what = FORMATS[dry.format] ?? "Export";
    const calls = dry.modelCalls === 0 ? "no model calls (stored as written: no model is set)" : `about ${plural(dry.modelCalls, "model call")}`;
    this.estimate.dataset.modelCalls = String(dry.modelCalls);
    this.estimate.textContent = `${what}: ${plural(dry.conversations, "conversation")}, ${plural(dry.messages, "message")} ` +
      `in ${plural(dry.chunks, "chunk")}: ${calls}.`;
    this.estimate.hidden = false;
    this.submit.disabled = false;
  }

  /** Import: the whole file, with progress; Cancel stops it between chunks. */
  async importFile() {
    if (!this.bytes) return;
    this.controller = new AbortController();
    this.submit.disabled = this.file.disabled = true;
    this.cancel.hidden = this.box.hidden = false;
    this.result.hidden = true;
    this.bar.value = 0;
    this.text.textContent = "Starting…";
    try {
      const report = await this.app.memory.importConversations(this.bytes, {
        ...this.options(), signal: this.controller.signal, onProgress: (p) => this.show(p),
      });
      this.finished(report);
    } catch (error) {
      if (error?.code !== "ABORTED") throw error;
      this.say("Import cancelled: what was imported stays. Import again to resume; the conversations already in are not sent again.", "cancelled");
    } finally {
      this.controller = null;
      this.cancel.hidden = this.box.hidden = true;
      this.submit.disabled = this.file.disabled = false;
      await this.app.memoriesChanged();
    }
  }

  /** One progress report: the bar follows the messages; the line counts conversations, messages and facts. */
  show({ conversations, messages, facts = 0 }) {
    this.bar.value = messages.total > 0 ? messages.done / messages.total : 1;
    this.text.textContent = `Conversations ${conversations.done} of ${conversations.total} · messages ${messages.done} of ${messages.total} · ${plural(facts, "fact")}`;
    this.box.dataset.done = String(messages.done);
  }

  finished(report) {
    const skipped = report.skipped?.length ? ` ${plural(report.skipped.length, "conversation")} skipped (${report.skipped[0].why}${report.skipped.length > 1 ? ", …" : ""}).` : "";
    const replayed = report.replayed ? ` ${plural(report.replayed, "chunk")} were already in and cost nothing.` : "";
    const deleted = report.deleted ? ` ${plural(report.deleted, "fact")} deleted (contradicted, or over the fact budget).` : "";
    this.say(`Imported ${plural(report.conversations, "conversation")} and ${plural(report.messages, "message")}: ` +
      `${plural(report.facts, "fact")}, ${plural(report.modelCalls, "model call")}.${deleted}${replayed}${skipped}`, "done");
  }

  say(sentence, state) {
    this.result.textContent = sentence;
    this.result.dataset.state = state;
    this.result.hidden = false;
    this.summary.textContent = state;
  }
}

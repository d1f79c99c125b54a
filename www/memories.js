// The memory pane: the user's memories a page at a time (newest first, with their true count), search
// with a method selector and scores, each memory's history timeline and sources, edit and delete, export, import with
// progress and Cancel, and reset behind a confirmation.
import { ImportProgress } from "./import-progress.js";
import { Pager } from "./pager.js";
import { toggleSources } from "./sources-view.js";
import { showError } from "./status.js";

export class MemoryPane {
  constructor(elements, app) {
    Object.assign(this, elements, { app });
    this.searching = false;
    this.pager = new Pager(elements.pager, () => this.run(() => this.refresh()));
    this.importing = new ImportProgress(elements.importStatus);
    this.searchForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.run(() => this.search());
    });
    this.searchClear.addEventListener("click", () => {
      this.searchForm.elements.namedItem("query").value = "";
      this.searching = false;
      this.run(() => this.refresh());
    });
    this.list.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      if (button) this.run(() => this.act(button.dataset.action, button.closest(".memory")));
    });
    this.exportButton.addEventListener("click", () => this.run(() => this.exportAll()));
    this.importInput.addEventListener("change", () => this.run(() => this.importFile()));
    this.resetButton.addEventListener("click", () => (this.resetConfirm.hidden = false));
    this.resetNo.addEventListener("click", () => (this.resetConfirm.hidden = true));
    this.resetYes.addEventListener("click", () => this.run(() => this.reset()));
  }

  get scope() {
    return { userId: this.app.settings.userId };
  }

  /** Runs an action, showing any error in place. */
  async run(action) {
    showError(this.error, null);
    try {
      await action();
    } catch (error) {
      showError(this.error, error);
    }
  }

  /** Re-reads the list's page (or re-runs the current search). */
  async refresh() {
    if (this.searching) return this.search();
    const { items, total } = await this.pager.read(this.app.memory, this.scope);
    this.note.hidden = true;
    this.render(items, total);
  }

  async search() {
    const query = this.searchForm.elements.namedItem("query").value.trim();
    if (!query) {
      this.searching = false;
      return this.refresh();
    }
    const method = this.searchForm.elements.namedItem("method").value;
    const found = await this.app.memory.search(query, { ...this.scope, method, limit: 20 });
    this.searching = true;
    this.searchClear.hidden = false;
    this.note.hidden = false;
    const used = found.method ?? method;
    this.note.textContent = `${found.results.length} result(s) for “${query}” by ${used}` +
      (used !== method ? ` (no embedder configured, so ${method} fell back to ${used})` : "");
    this.render(found.results);
  }

  /** Shows `items`: one page of `total` memories, or search results (`total` null). */
  render(items, total = null) {
    this.count.textContent = String(total ?? items.length);
    this.empty.hidden = items.length > 0;
    this.list.replaceChildren(...items.map((item) => this.row(item)));
    this.searchClear.hidden = !this.searching;
    this.pager.show(total, items.length);
  }

  row(item) {
    const node = this.template.content.firstElementChild.cloneNode(true);
    node.dataset.id = item.id;
    node.querySelector(".memory-text").textContent = item.memory;
    node.querySelector(".time").textContent = item.updatedAt !== item.createdAt
      ? `updated ${when(item.updatedAt)} · created ${when(item.createdAt)}`
      : `created ${when(item.createdAt)}`;
    if (typeof item.score === "number") {
      const score = node.querySelector(".score");
      score.hidden = false;
      score.textContent = `score ${item.score.toFixed(3)}`;
    }
    return node;
  }

  async act(action, node) {
    const id = node.dataset.id;
    const memory = this.app.memory;
    if (action === "sources") {
      await toggleSources(memory, node);
    } else if (action === "delete") {
      await memory.delete(id);
      await this.app.memoriesChanged();
    } else if (action === "history") {
      const timeline = node.querySelector(".timeline");
      if (!timeline.hidden) return void (timeline.hidden = true);
      const records = await memory.history(id);
      timeline.replaceChildren(...records.map((record) => {
        const entry = document.createElement("li");
        entry.dataset.event = record.event;
        entry.innerHTML = `<span class="when"></span><span class="tag ${record.event}">${record.event}</span> <span class="what"></span>`;
        entry.querySelector(".when").textContent = when(record.timestamp);
        entry.querySelector(".what").textContent = record.event === "UPDATE"
          ? `${record.oldValue} → ${record.newValue}`
          : record.newValue ?? record.oldValue ?? "";
        return entry;
      }));
      timeline.hidden = false;
    } else if (action === "edit") {
      const text = node.querySelector(".memory-text");
      const button = node.querySelector('[data-action="edit"]');
      if (text.isContentEditable) {
        await memory.update(id, text.textContent.trim());
        await this.app.memoriesChanged();
      } else {
        text.contentEditable = "true";
        text.focus();
        button.textContent = "Save";
      }
    }
  }

  async exportAll() {
    const jsonl = await this.app.memory.exportMemories(this.scope);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([jsonl], { type: "application/jsonl" }));
    link.download = `memwasm-${this.scope.userId}-${new Date().toISOString().slice(0, 10)}.jsonl`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  async importFile() {
    const file = this.importInput.files?.[0];
    this.importInput.value = "";
    if (!file) return;
    this.importInput.disabled = true;
    try {
      await this.importing.run(this.app.memory, await file.text());
    } finally {
      this.importInput.disabled = false;
      await this.app.memoriesChanged();
    }
  }

  async reset() {
    this.resetConfirm.hidden = true;
    await this.app.memory.reset();
    await this.app.memoriesChanged();
  }
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

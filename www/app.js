// The playground: opens an IndexedDB-backed memory with the user's settings and wires the panes.
import { Memory } from "../pkg/index.browser.mjs";
import { ChatPane } from "./chat.js";
import { ChatsImportPane } from "./chats-import.js";
import { MemoryPane } from "./memories.js";
import { wireOfflineModel } from "./offline-pane.js";
import { fillForm, hasLlm, loadSettings, readForm, saveSettings, showProviderFields, toConfig } from "./settings.js";
import { refreshStorage, showError, watchNetwork } from "./status.js";
import { SyncPane } from "./sync-pane.js";

const $ = (id) => document.getElementById(id);

const app = {
  memory: null,
  settings: loadSettings(),
  /** Opens (or re-opens) the memory for the current settings. */
  async open() {
    const next = await Memory.open(toConfig(this.settings));
    await sync.pause();
    this.memory?.free();
    this.memory = next;
    const offline = this.settings.semantic ? "offline · semantic" : "offline";
    const mode = hasLlm(this.settings) ? `${this.settings.provider} · user ${this.settings.userId}` : `${offline} · user ${this.settings.userId}`;
    $("mode-badge").textContent = mode;
    $("settings-summary").textContent = mode;
    memories.pager.first();
    await this.memoriesChanged();
    await sync.resume();
  },
  /** After each write of the page (and each sync round that changed memories here). */
  async memoriesChanged() {
    await Promise.all([memories.refresh(), refreshStorage($("storage-badge")), sync.refreshPending()]);
  },
};

const chat = new ChatPane(
  { log: $("chat-log"), form: $("chat-form"), progress: $("progress"), progressText: $("progress-text"), error: $("chat-error") },
  app,
);
const memories = new MemoryPane(
  {
    list: $("memory-list"), empty: $("memory-empty"), count: $("memory-count"), template: $("memory-template"),
    searchForm: $("search-form"), searchClear: $("search-clear"), note: $("search-note"), error: $("memory-error"),
    pager: { nav: $("memory-pager"), newer: $("pager-newer"), older: $("pager-older"), range: $("pager-range") },
    exportButton: $("export-button"), importInput: $("import-input"),
    importStatus: { box: $("import-status"), bar: $("import-progress"), text: $("import-text"), cancel: $("import-cancel") },
    resetButton: $("reset-button"), resetConfirm: $("reset-confirm"), resetYes: $("reset-yes"), resetNo: $("reset-no"),
  },
  app,
);
const sync = new SyncPane(
  { form: $("sync-form"), last: $("sync-last"), pending: $("sync-pending"), error: $("sync-error"), summary: $("sync-summary") },
  app,
);

const chats = new ChatsImportPane(
  { form: $("chats-form"), estimate: $("chats-estimate"), cancel: $("chats-cancel"), box: $("chats-progress"), bar: $("chats-bar"),
    text: $("chats-text"), result: $("chats-result"), error: $("chats-error"), summary: $("chats-summary") },
  app,
);

const form = $("settings-form");
fillForm(form, app.settings);
form.elements.namedItem("provider").addEventListener("change", () => showProviderFields(form));
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  app.settings = { ...readForm(form), semantic: app.settings.semantic };
  saveSettings(app.settings);
  try {
    await app.open();
    showError($("chat-error"), null);
  } catch (error) {
    showError($("chat-error"), error);
  }
});

watchNetwork($("network-badge"));
wireOfflineModel(form, app).catch(() => {});
if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
try {
  await app.open();
  document.body.dataset.ready = "true";
} catch (error) {
  showError($("chat-error"), error);
  document.body.dataset.ready = "error";
}
window.playground = { app, chat, chats, memories, sync };

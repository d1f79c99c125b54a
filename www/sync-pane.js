// The sync pane: the Worker's URL, a user's token and a passphrase (kept like the provider key: in
// sessionStorage, or in localStorage when "remember" is ticked; never logged), "Sync now" (`memory.sync`),
// "Keep in sync" (`memory.syncLive`), and where sync stands: the last round and what it moved, the changes
// written here and not yet pushed (`syncStatus().pending`), and the last error in place. See docs/sync.md.
import { showError } from "./status.js";

const SETTINGS_KEY = "memwasm.playground.sync";
const SECRETS_KEY = "memwasm.playground.syncSecrets";
const LAST_KEY = "memwasm.playground.syncLast";

const SENTENCES = {
  SYNC_NETWORK: "The sync Worker could not be reached (offline, wrong URL, or CORS); the next sync resumes where this one stopped.",
  SYNC_KEY: "The log did not decrypt with this passphrase: use the one your other devices use. Nothing was applied.",
  SYNC_ENTRY_INVALID: "The log holds an entry this version of memwasm cannot read; nothing was applied.",
  INVALID_CONFIG: "The sync settings are not usable; the detail names the field.",
};
const HTTP = {
  401: "The Worker did not accept the token.",
  403: "This token may not reach that log.",
};

/** The sentence for a sync error (the page's own for other codes). */
const sentence = (error) =>
  error?.code === "SYNC_HTTP" ? HTTP[error.status] ?? "The sync Worker refused the request (the detail says why)." : SENTENCES[error?.code];

const parse = (text) => {
  try {
    return JSON.parse(text ?? "{}") ?? {};
  } catch {
    return {};
  }
};

/** The saved sync settings: `{url, token, passphrase, remember, live}`. */
export function loadSync() {
  const { url = "", remember = false, live = false } = parse(localStorage.getItem(SETTINGS_KEY));
  const { token = "", passphrase = "" } = parse(sessionStorage.getItem(SECRETS_KEY) ?? localStorage.getItem(SECRETS_KEY));
  return { url, token, passphrase, remember, live };
}

/** Saves them: the token and passphrase to sessionStorage, or to localStorage when `remember` is set. */
export function saveSync({ token, passphrase, ...rest }) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(rest));
  sessionStorage.removeItem(SECRETS_KEY);
  localStorage.removeItem(SECRETS_KEY);
  if (token || passphrase) (rest.remember ? localStorage : sessionStorage).setItem(SECRETS_KEY, JSON.stringify({ token, passphrase }));
}

export class SyncPane {
  constructor({ form, last, pending, error, summary }, app) {
    Object.assign(this, { form, last, pending, error, summary, app });
    this.settings = loadSync();
    this.report = parse(localStorage.getItem(LAST_KEY)).at ? parse(localStorage.getItem(LAST_KEY)) : null;
    this.count = null;
    this.busy = false;
    this.live = null;
    this.liveOptions = "";
    this.running = null;
    for (const [name, value] of Object.entries(this.settings)) {
      const field = form.elements.namedItem(name);
      if (field.type === "checkbox") field.checked = value;
      else field.value = value;
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.syncNow();
    });
    form.elements.namedItem("live").addEventListener("change", (event) => {
      if (event.target.checked && !form.reportValidity()) return void (event.target.checked = false);
      this.save();
      this.resume();
    });
    this.render();
  }

  save() {
    const data = new FormData(this.form);
    const text = (name) => String(data.get(name) ?? "").trim();
    this.settings = { url: text("url"), token: text("token"), passphrase: String(data.get("passphrase") ?? ""),
      remember: data.get("remember") === "on", live: data.get("live") === "on" };
    saveSync(this.settings);
  }

  options() {
    const { url, token, passphrase } = this.settings;
    return { url, token, ...(passphrase ? { passphrase } : {}) };
  }

  /** "Sync now": one round, or with "Keep in sync" on, a round of the live sync (restarted on new settings). */
  async syncNow() {
    if (!this.form.reportValidity()) return;
    this.save();
    const button = this.form.querySelector('button[type="submit"]');
    button.disabled = this.busy = true;
    this.render();
    try {
      if (this.settings.live) {
        await this.resume();
        await this.live.syncNow();
      } else {
        this.running = this.app.memory.sync(this.options());
        this.done(await this.running);
      }
    } catch (error) {
      this.failed(error);
    } finally {
      this.running = null;
      button.disabled = this.busy = false;
      this.render();
    }
  }

  /** Stops the live sync and waits for any round, before the page replaces its memory. */
  async pause() {
    const live = this.live;
    this.live = null;
    this.liveOptions = "";
    await Promise.all([live?.stop(), this.running?.catch(() => {})]);
  }

  /** (Re)starts the live sync on the page's memory when "Keep in sync" is on and its settings changed. */
  async resume() {
    const wanted = this.settings.live && this.settings.url && this.settings.token && this.app.memory ? JSON.stringify(this.options()) : "";
    if (wanted === this.liveOptions && (this.live || !wanted)) return this.render();
    await this.pause();
    this.live = wanted
      ? this.app.memory.syncLive({ ...this.options(), onSync: (report) => this.done(report), onError: (error) => this.failed(error) })
      : null;
    this.liveOptions = wanted;
    this.render();
  }

  /** A round ended: shows what it moved, and refreshes the list when it changed memories here. */
  done(report) {
    this.report = { at: new Date().toISOString(), pushed: report.pushed, pulled: report.pulled,
      changed: report.applied.memories + report.applied.deletes };
    localStorage.setItem(LAST_KEY, JSON.stringify(this.report));
    this.count = report.pending;
    showError(this.error, null);
    this.render();
    if (this.report.changed > 0) this.app.memoriesChanged().catch((error) => this.failed(error));
  }

  failed(error) {
    showError(this.error, error, sentence(error));
    this.render();
  }

  /** Re-reads the changes not yet pushed (after each write of the page). */
  async refreshPending() {
    try {
      const status = await this.app.memory.syncStatus();
      // Before the first sync the store records nothing: its memories are not "pending" yet.
      this.count = status.logId || status.pending ? status.pending : null;
    } catch (error) {
      this.count = null;
      this.failed(error);
    }
    this.render();
  }

  render() {
    const report = this.report;
    const when = report ? new Date(report.at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" }) : "";
    const changed = report?.changed ? `; ${report.changed} ${report.changed === 1 ? "memory" : "memories"} changed here` : "";
    this.last.textContent = this.busy ? "Syncing…"
      : report ? `Last sync ${when}: pushed ${report.pushed}, pulled ${report.pulled}${changed}.` : "Not synced yet.";
    this.pending.dataset.pending = String(this.count ?? "");
    this.pending.textContent = this.count === null ? "" : `${this.count || "No"} ${this.count === 1 ? "change" : "changes"} pending.`;
    const code = this.error.hidden ? "" : this.error.querySelector("code")?.textContent;
    const short = report ? new Date(report.at).toLocaleTimeString(undefined, { timeStyle: "short" }) : "";
    this.summary.textContent = [this.live ? "keeping in sync" : "", short && `synced ${short}`, code ? `error ${code}` : "",
      this.count ? `${this.count} pending` : ""].filter(Boolean).join(" · ");
  }
}

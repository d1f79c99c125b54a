// The conversation pane: the user types, add() learns from the recent turns, the events show inline,
// and, with a language model configured, the assistant answers using recall().text as context.
import { answer } from "./llm.js";
import { showError } from "./status.js";
import { hasLlm } from "./settings.js";

const RECENT_TURNS = 6;

export class ChatPane {
  constructor({ log, form, progress, progressText, error }, app) {
    Object.assign(this, { log, form, progress, progressText, error, app });
    this.turns = [];
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
  }

  async send() {
    const input = this.form.elements.namedItem("message");
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    this.turns.push({ role: "user", content: text });
    this.bubble("user", text);
    showError(this.error, null);
    this.busy(true, "Remembering…");
    try {
      const { memory, settings } = this.app;
      const recent = this.turns.slice(-RECENT_TURNS);
      const result = await memory.add(hasLlm(settings) ? recent : [{ role: "user", content: text }], { userId: settings.userId });
      this.showEvents(result.results, result.warnings ?? []);
      await this.app.memoriesChanged();
      if (hasLlm(settings)) {
        this.busy(true, "Thinking…");
        const recalled = await memory.recall(text, { userId: settings.userId, tokenBudget: 800 });
        const reply = await answer(settings, recalled.text, recent);
        this.turns.push({ role: "assistant", content: reply });
        this.bubble("assistant", reply);
      }
    } catch (error) {
      showError(this.error, error);
    } finally {
      this.busy(false);
    }
  }

  busy(on, label = "") {
    this.progress.hidden = !on;
    this.progressText.textContent = label;
    for (const control of this.form.elements) control.disabled = on;
    if (!on) this.form.elements.namedItem("message").focus();
  }

  bubble(role, text) {
    const item = document.createElement("li");
    item.className = `msg ${role}`;
    item.textContent = text;
    this.log.append(item);
    item.scrollIntoView({ block: "end" });
  }

  showEvents(events, warnings) {
    const box = document.createElement("li");
    box.className = "events";
    if (events.length === 0 && warnings.length === 0) {
      box.innerHTML = `<div class="event muted small">Nothing new to remember.</div>`;
    }
    for (const event of events) {
      const row = document.createElement("div");
      row.className = "event";
      row.dataset.event = event.event;
      const tag = document.createElement("span");
      tag.className = `tag ${event.event}`;
      tag.textContent = event.event;
      const change = document.createElement("span");
      change.className = "change";
      if (event.event === "UPDATE") {
        const before = document.createElement("del");
        before.textContent = event.oldMemory;
        const after = document.createElement("ins");
        after.textContent = event.newMemory;
        change.append(before, " → ", after);
      } else {
        change.textContent = event.memory;
      }
      row.append(tag, change);
      box.append(row);
    }
    for (const warning of warnings) {
      const row = document.createElement("div");
      row.className = "event small muted";
      row.textContent = `⚠ ${warning.code}: ${warning.message}`;
      box.append(row);
    }
    this.log.append(box);
    box.scrollIntoView({ block: "end" });
  }
}

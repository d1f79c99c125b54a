// The offline provider's model block in the settings form: size, a download button with progress, and
// whether semantic search is on. After a download the offline provider reopens the same database with the
// local embedder and embeds in place, with progress, the memories stored while it searched by keyword.
import { embedInPlace } from "./embed-in-place.js";
import { downloadModel, megabytes, missingPart, probeModel } from "./offline-model.js";
import { saveSettings } from "./settings.js";
import { showError } from "./status.js";

const $ = (id) => document.getElementById(id);

export async function wireOfflineModel(form, app) {
  const [block, size, state, button, progress, missing] = ["offline-model", "offline-model-size", "offline-model-state",
    "offline-model-download", "offline-model-progress", "offline-model-missing"].map($);
  let model = await probeModel();
  let outcome = "";
  const update = () => {
    block.hidden = form.elements.namedItem("provider").value !== "offline";
    size.textContent = model.available ? megabytes(model.bytes) : "not on this server";
    missing.textContent = missingPart(model);
    missing.hidden = !missing.textContent;
    const on = app.settings.semantic && model.cached;
    state.textContent = outcome || (on ? "Ready: the offline provider searches by meaning." : model.cached ? "Downloaded." : "");
    button.hidden = on || !missing.hidden;
    button.textContent = model.cached ? "Use the model" : "Download the model";
  };
  form.elements.namedItem("provider").addEventListener("change", update);
  button.addEventListener("click", async () => {
    button.disabled = true;
    progress.hidden = false;
    outcome = "";
    try {
      await downloadModel(model.bytes, (fraction) => (progress.value = fraction));
      app.settings = { ...app.settings, provider: "offline", semantic: true };
      saveSettings(app.settings);
      await app.open();
      model = await probeModel();
      outcome = await turnOn(app, (fraction, sentence) => {
        progress.value = fraction;
        state.textContent = sentence;
      });
    } catch (error) {
      outcome = error?.outcome ?? "";
      showError($("chat-error"), error);
    } finally {
      button.disabled = false;
      progress.hidden = true;
      update();
    }
  });
  update();
}

/**
 * Embeds the stored memories in place and says how many; when that fails (another model's vectors, say),
 * turns the model off again, so the offline provider keeps searching by keyword, and rethrows.
 */
async function turnOn(app, onProgress) {
  try {
    const count = await embedInPlace(app.memory, { userId: app.settings.userId }, onProgress);
    await app.memoriesChanged();
    return `Ready: the offline provider searches by meaning. ${count} ${count === 1 ? "memory" : "memories"} embedded on this device.`;
  } catch (error) {
    app.settings = { ...app.settings, semantic: false };
    saveSettings(app.settings);
    await app.open();
    const cause = error?.code === "DIMENSION_MISMATCH"
      ? "the memories here carry another embedding model's vectors, which this model cannot compare with"
      : "the memories already stored could not be embedded (the error below says why)";
    throw Object.assign(error, { outcome: `Not turned on: ${cause}; nothing was changed, and the offline provider still searches by keyword.` });
  }
}

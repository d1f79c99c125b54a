// Settings: the form, where they are kept, and the memwasm config they mean.
// The API key lives in sessionStorage unless the user opts into localStorage; it is never logged.
import { localEmbedder } from "./offline-model.js";

const SETTINGS_KEY = "memwasm.playground.settings";
const API_KEY = "memwasm.playground.apiKey";

export const DEFAULTS = {
  provider: "offline",
  baseUrl: "",
  model: "",
  embedModel: "",
  apiKey: "",
  userId: "me",
  rememberKey: false,
  /** The offline provider embeds with the on-device model (set once it is downloaded). */
  semantic: false,
};

const PLACEHOLDERS = {
  openai: { baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini", embedModel: "text-embedding-3-small" },
  anthropic: { baseUrl: "https://api.anthropic.com/v1", model: "claude-3-5-haiku-latest", embedModel: "(none: keyword search)" },
  gemini: { baseUrl: "https://generativelanguage.googleapis.com/v1beta", model: "gemini-2.0-flash", embedModel: "text-embedding-004" },
  ollama: { baseUrl: "http://localhost:11434", model: "llama3.2", embedModel: "nomic-embed-text" },
};

/** The saved settings (defaults for anything missing). */
export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}");
  } catch {
    saved = {};
  }
  const apiKey = sessionStorage.getItem(API_KEY) ?? localStorage.getItem(API_KEY) ?? "";
  return { ...DEFAULTS, ...saved, apiKey };
}

/** Saves settings; the key goes to sessionStorage, or to localStorage when `rememberKey` is set. */
export function saveSettings(settings) {
  const { apiKey, ...rest } = settings;
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(rest));
  sessionStorage.removeItem(API_KEY);
  localStorage.removeItem(API_KEY);
  if (apiKey) (settings.rememberKey ? localStorage : sessionStorage).setItem(API_KEY, apiKey);
}

export function fillForm(form, settings) {
  for (const [name, value] of Object.entries(settings)) {
    const field = form.elements.namedItem(name);
    if (!field) continue;
    if (field.type === "checkbox") field.checked = Boolean(value);
    else field.value = value;
  }
  showProviderFields(form);
}

export function readForm(form) {
  const data = new FormData(form);
  const text = (name) => String(data.get(name) ?? "").trim();
  return {
    provider: text("provider"),
    baseUrl: text("baseUrl"),
    model: text("model"),
    embedModel: text("embedModel"),
    apiKey: text("apiKey"),
    userId: text("userId") || "me",
    rememberKey: data.get("rememberKey") === "on",
  };
}

/** Hides LLM fields in offline mode and shows each provider's defaults as placeholders. */
export function showProviderFields(form) {
  const provider = form.elements.namedItem("provider").value;
  for (const element of form.querySelectorAll(".needs-llm")) element.hidden = provider === "offline";
  const hints = PLACEHOLDERS[provider] ?? {};
  for (const name of ["baseUrl", "model", "embedModel"]) form.elements.namedItem(name).placeholder = hints[name] ?? "";
}

/** True when the settings name a language model (so the page can also answer). */
export function hasLlm(settings) {
  return settings.provider !== "offline";
}

/** The memwasm config these settings mean, persisting to IndexedDB. Empty fields keep the library's defaults. */
export function toConfig(settings) {
  const storage = { provider: "indexeddb", config: { dbName: "memwasm-playground", persist: true } };
  const model = (name) => settings[name] || PLACEHOLDERS[settings.provider]?.[name];
  const connection = { apiKey: settings.apiKey || undefined, baseUrl: settings.baseUrl || undefined };
  switch (settings.provider) {
    case "openai":
      return {
        storage,
        llm: { provider: "openai", config: { ...connection, model: model("model") } },
        embedder: settings.embedModel || !settings.baseUrl
          ? { provider: "openai", config: { ...connection, model: model("embedModel") } }
          : { provider: "none" },
      };
    case "anthropic":
      return {
        storage,
        llm: { provider: "anthropic", config: { ...connection, model: model("model"), dangerouslyAllowBrowser: true } },
        embedder: { provider: "none" },
      };
    case "gemini":
      return {
        storage,
        llm: { provider: "gemini", config: { ...connection, model: model("model") } },
        embedder: { provider: "gemini", config: { ...connection, model: model("embedModel") } },
      };
    case "ollama":
      return {
        storage,
        llm: { provider: "ollama", config: { ...connection, model: model("model") } },
        embedder: { provider: "ollama", config: { ...connection, model: model("embedModel") } },
      };
    default:
      // The same database with or without the on-device model: turning it on embeds what is there in place.
      if (settings.semantic) return { storage, llm: { provider: "none" }, embedder: localEmbedder() };
      return { storage, llm: { provider: "none" }, embedder: { provider: "none" } };
  }
}

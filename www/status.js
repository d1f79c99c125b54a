// What the user can see about the page's state: network, mode, storage, and errors with a human sentence.

const SENTENCES = {
  SCOPE_REQUIRED: "Set a user id in Settings: every memory belongs to someone.",
  INVALID_CONFIG: "The settings are not usable; check the provider fields.",
  INVALID_INPUT: "That input was not accepted.",
  INVALID_FILTER: "The filter is malformed.",
  NOT_FOUND: "That memory no longer exists (perhaps deleted in another tab).",
  LLM_HTTP: "The language model refused the request. Check the key, model and base URL.",
  LLM_NETWORK: "The language model could not be reached (offline, wrong URL, or CORS).",
  LLM_RESPONSE: "The language model answered in an unexpected shape.",
  LLM_TIMEOUT: "The language model did not answer in time; it may be busy. Try again, or raise timeoutMs.",
  LLM_UNAVAILABLE: "The language model's host was found down a moment ago; one request tries it again after the cool-down.",
  EMBEDDING_HTTP: "The embedding model refused the request. Check the embedding model and key.",
  EMBEDDING_NETWORK: "The embedding model could not be reached (offline, wrong URL, or CORS).",
  EMBEDDING_RESPONSE: "The embedding model answered in an unexpected shape.",
  EMBEDDING_TIMEOUT: "The embedding model did not answer in time; searches rank by keywords meanwhile.",
  EMBEDDING_UNAVAILABLE: "The embedding model's host was found down a moment ago; searches rank by keywords until it is tried again.",
  DIMENSION_MISMATCH: "The embedding size differs from the stored memories'; use the same embedding model, or reset.",
  STORAGE: "The browser storage failed; nothing was half-written.",
  STORAGE_QUOTA: "The browser's storage quota is full; export and reset, or free space.",
  STORAGE_UNAVAILABLE: "This browser offers no IndexedDB here (private mode?); memories cannot be kept.",
  IMPORT: "The file could not be imported; nothing was changed.",
  EMBEDDER_LOAD: "The on-device model could not be loaded (the detail names the file). On the server, run `bash scripts/build-local-embedder.sh` and `bash scripts/setup.sh minilm-weights`, then reload.",
};

/** `{code, sentence, detail}` for any thrown value; `sentence` (a pane's own wording) overrides the page's. */
export function describe(error, sentence) {
  const code = typeof error?.code === "string" ? error.code : "ERROR";
  const detail = error?.message ?? String(error);
  return { code, sentence: sentence ?? SENTENCES[code] ?? "Something went wrong.", detail };
}

/** Shows `error` in `element` (with `sentence` when given), or hides the element when `error` is null. */
export function showError(element, error, sentence) {
  element.hidden = !error;
  element.replaceChildren();
  if (!error) return;
  const { code, sentence: said, detail } = describe(error, sentence);
  const codeElement = document.createElement("code");
  codeElement.textContent = code;
  const detailElement = document.createElement("div");
  detailElement.className = "small muted";
  detailElement.textContent = detail;
  element.append(codeElement, said, detailElement);
}

/** Keeps the network badge in step with the browser's online state. */
export function watchNetwork(badge) {
  const update = () => {
    badge.textContent = navigator.onLine ? "online" : "offline";
    badge.className = `badge ${navigator.onLine ? "ok" : "warn"}`;
  };
  addEventListener("online", update);
  addEventListener("offline", update);
  update();
}

/** Storage used and whether the browser promised to keep it. */
export async function refreshStorage(badge) {
  if (!navigator.storage?.estimate) {
    badge.textContent = "storage: unknown";
    return;
  }
  const [{ usage = 0 }, persisted] = await Promise.all([navigator.storage.estimate(), navigator.storage.persisted?.() ?? false]);
  badge.textContent = `storage ${formatBytes(usage)} · ${persisted ? "persisted" : "best-effort"}`;
  badge.className = `badge ${persisted ? "ok" : ""}`;
  badge.title = persisted ? "The browser will not evict this data under pressure." : "The browser may evict this data when disk space runs low.";
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

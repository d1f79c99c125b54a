// Offline support: the page, its modules and the memory package are cached on first load and served
// from the cache when the network is gone (network first, so updates arrive when online).
const CACHE = "memwasm-playground-v8";
const SHELL = [
  "./", "index.html", "style.css", "app.js", "chat.js", "memories.js", "pager.js", "import-progress.js", "settings.js", "status.js", "llm.js",
  "offline-model.js", "offline-pane.js", "embed-in-place.js", "sync-pane.js", "chats-import.js", "sources-view.js", "../pkg/sync.mjs", "../pkg/sync-round.mjs", "../pkg/sync-crypto.mjs", "../pkg/local-embedder/sources.mjs", "../pkg/local-embedder/provider.mjs",
  "../pkg/index.browser.mjs", "../pkg/split.mjs", "../pkg/lazy.mjs", "../pkg/dist/memory-methods.js", "../pkg/dist/core/memwasm.js", "../pkg/dist/core/memwasm_bg.wasm",
  // The full module too (graph memory, conversations, documents), which the package fetches on first use.
  "../pkg/dist/memwasm.js", "../pkg/dist/memwasm_bg.wasm", "../pkg/dist/errors.js",
  // importConversations (the Import from ChatGPT / Claude pane).
  ...["index", "settings", "importer", "source", "detect", "chatgpt", "claude", "mem0", "memwasm", "plan", "zip"].map((name) => `../pkg/import/${name}.mjs`),
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  // The offline model is kept by memwasm/local-embedder in its own cache: no second copy here.
  if (url.pathname.includes("/models/")) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        const copy = response.clone();
        if (response.ok) caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        return response;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true }).then((hit) => hit ?? Response.error())),
  );
});

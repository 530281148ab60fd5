// The keeper page's service worker (scope /keep, on HTTPS or loopback): the page's frame,
// script and style come from the network while it answers, and from this cache when it does
// not, so a reload while offline brings the page back; its outbox lives in IndexedDB.
// Live data (/api/...) never comes from a cache.
const CACHE = "courtside-keeper-6";
const FILES = [
  "/static/clock.js", "/static/bind.js", "/static/keeper-link.js", "/static/keeper-outbox.js", "/static/keeper-store.js",
  "/static/keeper-draw.js", "/static/keeper-socket.js", "/static/keeper-post.js", "/static/keeper.js", "/static/keeper.css", "/static/language.css",
];

// Only the keeper page is kept: the join page lives at /keep too (X-Courtside-Page says which).
const keepable = (path, response) =>
  response.ok && (path !== "/keep" || response.headers.get("X-Courtside-Page") === "keeper");

async function fill() {
  const cache = await caches.open(CACHE);
  for (const path of ["/keep", ...FILES]) {
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (keepable(path, response)) await cache.put(path, response);
  }
}

// Live data goes to the network without waking this worker (the Static Routing API, where the
// browser has it; elsewhere the fetch handler below lets it pass): every command's POST went
// through the worker's fetch event first, 0.5 ms of a tap in Chromium, for nothing.
const live = self.URLPattern && [{ condition: { urlPattern: new URLPattern({ pathname: "/api/*" }) }, source: "network" }];
self.addEventListener("install", (event) => {
  self.skipWaiting();
  if (event.addRoutes && live) event.waitUntil(event.addRoutes(live).catch(() => {}));
  event.waitUntil(fill().catch(() => {}));
});
// An older page's cache goes: its files would never be asked for again.
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
  await self.clients.claim();
})()));
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path !== "/keep" && !FILES.includes(path)) return;
  event.respondWith((async () => {
    try {
      const response = await fetch(event.request);
      if (keepable(path, response)) {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE).then((cache) => cache.put(path, copy)));
      }
      return response;
    } catch (error) {
      return (await caches.match(path)) || Response.error();
    }
  })());
});

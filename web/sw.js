// The Cheese Box offline: every file of the page is kept at install, and the
// page is served from that copy, network or not. build.py writes the list
// and the version (a new build is a new cache; the old one is dropped).
const VERSION = "@VERSION@";
const FILES = @FILES@;
const CACHE = "cheesebox-" + VERSION;

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("cheesebox-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (ev) => {
  if (ev.request.method !== "GET") return;
  ev.respondWith(caches.open(CACHE).then((c) =>
    c.match(ev.request, { ignoreSearch: true }).then((hit) => hit || fetch(ev.request))));
});

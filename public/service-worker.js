// A self-removing service worker (docs/product/screens.md §2, docs/architecture/behaviour.md §4): an earlier version of the product
// registered a worker at this path. Browsers that still run it fetch this file as its update:
// it unregisters itself and reloads the pages it controlled, so they load fresh from the server.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await self.registration.unregister();
      const clients = await self.clients.matchAll({ type: "window" });
      for (const client of clients) client.navigate(client.url);
    })(),
  );
});

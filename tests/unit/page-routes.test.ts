// The routes handed to React Router's <ServerRouter> (app/server/page-routes.server.ts): the page's own
// and those of its ancestor paths, with React Router's matcher kept per path. The contexts are React
// Router's own, from createStaticHandler's query; a page rendered with them is the page React Router
// renders with the whole table, byte for byte (so a release that widens what its partial manifest
// reads fails here); tests/integration/server.test.ts checks the app's pages.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, Links, Meta, Outlet, Scripts, ServerRouter, type EntryContext, type StaticHandlerContext } from "react-router";
import { describe, expect, it } from "vitest";
import { keptPaths, pageRouterContext } from "../../app/server/page-routes.server";

/**
 * A small route table as the manifest and as data routes: root > (index, login, an alias under a
 * path of its own, main layout > safewindow, its pass, settings > its index and data, splat).
 */
const table = [
  { id: "root", path: "" },
  { id: "routes/intro", parentId: "root", index: true },
  { id: "routes/login", parentId: "root", path: "login" },
  { id: "routes/consumer-login", parentId: "root", path: "consumer/login" },
  { id: "routes/main", parentId: "root" },
  { id: "routes/safewindow", parentId: "routes/main", path: "safewindow" },
  { id: "routes/pass", parentId: "routes/main", path: "safewindow/pass" },
  { id: "routes/settings", parentId: "routes/main", path: "settings" },
  { id: "routes/settings-index", parentId: "routes/settings", index: true },
  { id: "routes/settings-data", parentId: "routes/settings", path: "data" },
  { id: "routes/not-found", parentId: "root", path: "*" },
];

const manifest = {
  entry: { module: "/entry.js", imports: [], css: [] },
  url: "/manifest.js",
  version: "1",
  routes: Object.fromEntries(table.map((route) => [route.id, { ...route, module: `/${route.id}.js`, hasLoader: false, hasAction: false }])),
} as unknown as EntryContext["manifest"];

function dataRoutes(parentId?: string): Parameters<typeof createStaticHandler>[0] {
  return table
    .filter((route) => route.parentId === parentId)
    .map((route) => (route.index ? { id: route.id, index: true as const } : { id: route.id, path: route.path, children: dataRoutes(route.id) }));
}

/** React Router's context for `path` (under `basename`), from a new static handler or `handler`. */
async function contextFor(path: string, options: { basename?: string; handler?: ReturnType<typeof createStaticHandler> } = {}) {
  const handler = options.handler ?? createStaticHandler(dataRoutes(undefined), { basename: options.basename });
  const context = (await handler.query(new Request(`http://localhost${path}`))) as StaticHandlerContext;
  return { handler, context: { manifest, staticHandlerContext: context } as unknown as EntryContext };
}

const ids = (context: EntryContext) => Object.keys(context.manifest.routes).sort();

describe("pageRouterContext", () => {
  it("keeps the routes the page matched and those of its ancestor paths, and changes nothing in React Router's context", async () => {
    const { context } = await contextFor("/login");
    const page = pageRouterContext(context);
    expect(ids(page)).toEqual(["root", "routes/intro", "routes/login"]);
    expect(page.manifest.routes["routes/login"]).toBe(manifest.routes["routes/login"]);
    expect(page.manifest.entry).toBe(manifest.entry);
    expect(ids(context)).toHaveLength(table.length);
    expect(Object.keys(page.staticHandlerContext)).toEqual(Object.keys(context.staticHandlerContext));

    // A nested path: its layout and "/safewindow"'s routes; an unknown one: the catch-all at each ancestor.
    expect(ids(pageRouterContext((await contextFor("/safewindow/pass")).context))).toEqual(["root", "routes/intro", "routes/main", "routes/pass", "routes/safewindow"]);
    expect(ids(pageRouterContext((await contextFor("/no/such/page")).context))).toEqual(["root", "routes/intro", "routes/not-found"]);
    expect(ids(pageRouterContext((await contextFor("/settings/data")).context))).toEqual(["root", "routes/intro", "routes/main", "routes/settings", "routes/settings-data", "routes/settings-index"]);
  });

  it("matches under the basename as React Router does: '/' is outside it, '/sw' is its '/'", async () => {
    const { context } = await contextFor("/sw/login", { basename: "/sw" });
    expect(ids(pageRouterContext(context))).toEqual(["root", "routes/intro", "routes/login"]);
  });

  it("answers a path as React Router's matcher does, asking it once per path and per route table", async () => {
    const asked = new Map<string, number>();
    const { handler, context } = await contextFor("/login");
    const original = context.staticHandlerContext._match;
    const counted: typeof original = (location) => {
      if (typeof location === "string") asked.set(location, (asked.get(location) ?? 0) + 1);
      return original(location);
    };
    for (let i = 0; i < 5; i++) {
      const { context: again } = await contextFor("/login", { handler });
      const page = pageRouterContext({ ...again, staticHandlerContext: { ...again.staticHandlerContext, _match: counted } });
      // The kept matcher's answers are React Router's.
      expect(page.staticHandlerContext._match("/safewindow")?.map((m) => m.route.id)).toEqual(original("/safewindow")?.map((m) => m.route.id));
      expect(page.staticHandlerContext._match({ pathname: "/login" })?.map((m) => m.route.id)).toEqual(["root", "routes/login"]);
    }
    expect(asked.get("/")).toBe(1);
    expect(asked.get("/safewindow")).toBe(1);

    // Another route table (a new build): its matcher is asked again.
    const { context: other } = await contextFor("/login");
    const otherAsked: string[] = [];
    const otherMatch = other.staticHandlerContext._match;
    pageRouterContext({ ...other, staticHandlerContext: { ...other.staticHandlerContext, _match: (location) => (otherAsked.push(String(location)), otherMatch(location)) } });
    expect(otherAsked).toEqual(["/"]);
  });

  it(`keeps at most ${keptPaths} paths: the oldest is asked again`, async () => {
    const asked = new Map<string, number>();
    const { context } = await contextFor("/login");
    const original = context.staticHandlerContext._match;
    const counted: typeof original = (location) => {
      asked.set(String(location), (asked.get(String(location)) ?? 0) + 1);
      return original(location);
    };
    const at = (pathname: string) => pageRouterContext({ ...context, staticHandlerContext: { ...context.staticHandlerContext, location: { ...context.staticHandlerContext.location, pathname }, _match: counted } });
    at("/first/page");
    for (let n = 0; n < keptPaths; n++) at(`/p${n}/page`);
    at("/first/page");
    expect(asked.get("/first")).toBe(2);
    expect(asked.get("/")).toBe(1);
  });
});

/** Each route's module: the root renders the document (React Router's Meta, Links, Scripts), the others an outlet and their id. */
const routeModules = Object.fromEntries(
  table.map((route) => [
    route.id,
    {
      default:
        route.id === "root"
          ? () => createElement("html", null, createElement("head", null, createElement(Meta), createElement(Links)), createElement("body", null, createElement(Outlet), createElement(Scripts)))
          : () => createElement("section", { id: route.id }, createElement(Outlet)),
    },
  ]),
);

/** The page React Router renders for `context` (its lazy route discovery on, as the app's build has it). */
function page(context: EntryContext, url: string): string {
  const entry = { ...context, routeModules, future: {}, ssr: true, isSpaMode: false, routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" } } as unknown as EntryContext;
  return renderToString(createElement(ServerRouter, { context: entry, url }));
}

describe("a page rendered with pageRouterContext", () => {
  it("is the page React Router renders with the whole route table, byte for byte, whatever the path's spelling", async () => {
    const paths = ["/", "/login", "/LOGIN", "/login/", "//login", "/consumer/login", "/consumer", "/safewindow", "/safewindow/pass", "/Safewindow/Pass/", "/settings", "/settings/data", "/settings/data/x", "/no/such/page", "/caf%C3%A9/x"];
    for (const path of paths) {
      const { context } = await contextFor(path);
      const whole = page(context, `http://localhost${path}`);
      expect(whole).toContain("__reactRouterManifest");
      expect(page(pageRouterContext(context), `http://localhost${path}`), path).toBe(whole);
    }
    // Under a basename.
    for (const path of ["/sw", "/sw/login", "/sw/settings/data"]) {
      const { context } = await contextFor(path, { basename: "/sw" });
      const whole = page(context, `http://localhost${path}`);
      expect(whole).toContain("__reactRouterManifest");
      expect(page(pageRouterContext(context), `http://localhost${path}`), path).toBe(whole);
    }
  });
});

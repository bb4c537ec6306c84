/**
 * The routes a rendered page needs, handed to React Router's `<ServerRouter>` instead of the whole
 * route table (docs/architecture/request-path.md §7.2).
 *
 * On every request `<ServerRouter>` made a route object, then a data route, of every route of the
 * manifest, and `<Scripts>` matched "/" and each ancestor path of the URL against the whole table
 * for the partial manifest it writes into the page (React Router's lazy route discovery): every
 * route tried before "/" fits last. Those copies and matches were a large part of what a rendered
 * page allocated (bench/README.md "What the fourth round cut"). What the page reads is the routes
 * it matched and those of its ancestor paths. So `<ServerRouter>` is given:
 * - a manifest of those routes only (the same route objects);
 * - React Router's own matcher with its answers kept per path (at most `keptPaths`), for the
 *   ancestor paths: which routes match a path depends only on the route table, so the answer is
 *   the same on every request. The matcher is the static handler context's `_match`, marked private
 *   in React Router's types: a release that renames it fails the typecheck.
 * The page is the same, byte for byte: tests/unit/page-routes.test.ts renders pages of a route table
 * both ways with React Router's own `<ServerRouter>` (so a release that reads more routes for its
 * partial manifest fails there), and tests/integration/server.test.ts checks the app's pages'
 * partial manifests against the build's whole manifest.
 */
import { LRUCache } from "lru-cache";
import type { EntryContext } from "react-router";

type Manifest = EntryContext["manifest"];
type Match = EntryContext["staticHandlerContext"]["_match"];

/** Paths whose matches are kept, per matcher (one per server build). */
export const keptPaths = 500;

const keptMatchers = new WeakMap<Match, Match>();

/**
 * `match` with its answers for string paths kept (a path the LRU let go is matched again). The
 * answers are shared between requests: `<ServerRouter>` copies each match it returns, and the
 * partial manifest reads only the route ids.
 */
function keptMatcher(match: Match): Match {
  let kept = keptMatchers.get(match);
  if (!kept) {
    const answers = new LRUCache<string, { matches: ReturnType<Match> }>({ max: keptPaths });
    kept = (location) => {
      if (typeof location !== "string") return match(location);
      let answer = answers.get(location);
      if (!answer) {
        answer = { matches: match(location) };
        answers.set(location, answer);
      }
      return answer.matches;
    };
    keptMatchers.set(match, kept);
  }
  return kept;
}

/**
 * The paths whose matches React Router's partial manifest adds to the page's own: "/" and each
 * ancestor of `pathname` ("/a/b/c" gives "/", "/a/b" and "/a"), as its `getPartialManifest` lists them.
 */
function ancestorPaths(pathname: string): string[] {
  const segments = pathname.split("/").filter(Boolean);
  const paths = ["/"];
  segments.pop();
  while (segments.length > 0) {
    paths.push(`/${segments.join("/")}`);
    segments.pop();
  }
  return paths;
}

/**
 * `context` for `<ServerRouter>`: its manifest holds only the routes the page matched (with their
 * parents) and those matching an ancestor path of the URL; its static handler context matches
 * through `keptMatcher`.
 * @param context the entry context React Router gives `handleRequest`; not changed
 * @returns a shallow copy with that manifest (the same route objects) and that matcher
 */
export function pageRouterContext(context: EntryContext): EntryContext {
  const { manifest, staticHandlerContext } = context;
  const match = keptMatcher(staticHandlerContext._match);
  const ids = new Set(staticHandlerContext.matches.map((found) => found.route.id));
  for (const path of ancestorPaths(staticHandlerContext.location.pathname)) {
    for (const found of match(path) ?? []) ids.add(found.route.id);
  }
  const routes: Manifest["routes"] = {};
  for (const id of ids) {
    const route = manifest.routes[id];
    if (route) routes[id] = route;
  }
  return { ...context, manifest: { ...manifest, routes }, staticHandlerContext: { ...staticHandlerContext, _match: match } };
}

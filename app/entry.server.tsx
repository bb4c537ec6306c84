/**
 * Server entry: streams the HTML with the request's CSP nonce (docs/architecture/README.md §2 server). The
 * request context comes from server/app.ts's getLoadContext, built in the same bundle, so its keys
 * are this bundle's.
 */
import { Transform } from "node:stream";
import type { EntryContext } from "react-router";
import { ServerRouter, type RouterContextProvider } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { NonceContext } from "./nonce";
import { requestContext } from "./server/context";
import { actionInstrumentation } from "./server/http-metrics.server";
import type { SharedPageHandle } from "./server/page-cache.server";
import { languageCookieName, languageOf } from "./server/i18n.server";
import { consentCookieName } from "./server/preferences.server";
import { browserTimeZoneCookieName, chosenTimeZoneCookieName } from "./server/timezone.server";

export const streamTimeout = 5_000;

/** React Router's server instrumentations: every action counted by route (app/server/http-metrics.server.ts). */
export const instrumentations = [actionInstrumentation];

/**
 * The cookies whose values the shared page cache keys on (app/server/page-cache.server.ts): the
 * consent answer (the banner), the time zone (the browser's and the one chosen in My Settings) and
 * the chosen language. A request with any other cookie renders its own page.
 */
export function sharedPageCookies(): string[] {
  return [consentCookieName(), browserTimeZoneCookieName(), chosenTimeZoneCookieName(), languageCookieName()];
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, log, sharedPage } = loadContext.get(requestContext);
  // Here as well as in the language middleware: a page the shared page cache stores keeps the
  // headers the renderer gave, and its copies must say their language too.
  responseHeaders.set("Content-Language", languageOf(loadContext));
  const slot = sharedPage && storable(responseStatusCode, responseHeaders, routerContext) ? sharedPage : undefined;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = coalescingStream((html) => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            if (slot && html !== undefined && !failed) slot.store(html, responseHeaders);
          }, slot !== undefined);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          failed = true;
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          if (shellRendered) log.error({ err: error }, "render error");
        },
      },
    );
  });
}

/** Logs errors of loaders and actions once, with the request id, never to the browser. */
export function handleError(error: unknown, { request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
  if (request.signal.aborted) return;
  try {
    context.get(requestContext).log.error({ err: error }, "unhandled route error");
  } catch {
    console.error(error);
  }
}

/**
 * True when this page may be kept in the shared page cache: its leaf route allows it
 * (`handle.sharedPage`), it is a 200 and it sets no cookie so far (app/server/page-cache.server.ts;
 * the middleware may still add one, so server.ts stores it only by the headers that went out).
 */
function storable(status: number, headers: Headers, context: EntryContext): boolean {
  if (status !== 200 || headers.has("set-cookie")) return false;
  const leaf = context.staticHandlerContext.matches.at(-1);
  const handle = leaf ? (context.routeModules[leaf.route.id]?.handle as Partial<SharedPageHandle> | undefined) : undefined;
  return handle?.sharedPage === true;
}

/**
 * A pass-through stream that joins what is written within one turn of the event loop into one
 * chunk: React writes a page's HTML in pieces of about 2 KB, all at once, and each piece would
 * otherwise cost its own trip through the compression middleware and the socket. Later writes
 * (a Suspense boundary resolving) still flow as they come. `onEnd` runs once the writer ended,
 * with the whole HTML when `keep` is set (for the shared page cache), else with undefined.
 */
function coalescingStream(onEnd: (html: string | undefined) => void, keep: boolean): Transform {
  const kept: Buffer[] = [];
  let pending: Buffer[] = [];
  let scheduled = false;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushPending);
      }
      callback();
    },
    flush(callback) {
      flushPending();
      onEnd(keep ? Buffer.concat(kept).toString("utf8") : undefined);
      callback();
    },
  });
  function flushPending() {
    scheduled = false;
    if (pending.length === 0) return;
    const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    if (keep) kept.push(joined);
    stream.push(joined);
  }
  return stream;
}

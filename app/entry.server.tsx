/**
 * Server entry: renders the page with the request's CSP nonce (docs/architecture/README.md §2 server) and
 * answers it whole, gzipped on a kept compressor when the browser accepts gzip
 * (docs/decisions/0021-pages-whole-and-gzipped.md). The request context comes from server/app.ts's
 * getLoadContext, built in the same bundle, so its keys are this bundle's.
 */
import { Writable } from "node:stream";
import type { EntryContext } from "react-router";
import { ServerRouter, type RouterContextProvider } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "./nonce";
import { requestContext } from "./server/context";
import { acceptsGzip, gzipPage } from "./server/gzip.server";
import { actionInstrumentation } from "./server/http-metrics.server";
import type { SharedPageHandle } from "./server/page-cache.server";
import { pageRouterContext } from "./server/page-routes.server";
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
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const slot = sharedPage && storable(responseStatusCode, responseHeaders, routerContext) ? sharedPage : undefined;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={pageRouterContext(routerContext)} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        // The whole page, then one answer with its length: no page of the app suspends, so nothing
        // comes sooner by streaming, and one piece costs the main thread least.
        onAllReady() {
          const pieces: Buffer[] = [];
          pipe(
            new Writable({
              write(chunk: Buffer, _encoding, callback) {
                pieces.push(chunk);
                callback();
              },
              final(callback) {
                clearTimeout(timeoutId);
                timeoutId = undefined;
                const html = Buffer.concat(pieces);
                if (slot && !failed) slot.store(html.toString("utf8"), responseHeaders);
                answer(html).then(resolve, reject);
                callback();
              },
            }),
          );
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

  /** The Response of the page's HTML: gzip (a kept compressor, gzip.server.ts) when the browser accepts it, with its length. */
  async function answer(html: Buffer): Promise<Response> {
    let body = html;
    if (acceptsGzip(request.headers.get("accept-encoding"))) {
      body = await gzipPage(html);
      responseHeaders.set("Content-Encoding", "gzip");
    }
    // A page does not pass through the compression middleware (server/app.ts): it says Vary itself, gzip or not.
    if (!/\baccept-encoding\b/i.test(responseHeaders.get("Vary") ?? "")) responseHeaders.append("Vary", "Accept-Encoding");
    responseHeaders.set("Content-Length", String(body.length));
    // A Buffer is a Uint8Array over an ArrayBuffer here (never a SharedArrayBuffer).
    return new Response(body as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode });
  }
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

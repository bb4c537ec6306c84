/**
 * Server entry: streams the HTML with the request's CSP nonce (docs/architecture.md §2 server), and
 * exports `createLoadContext`, which server.ts calls so that the context keys are this bundle's.
 */
import { Transform } from "node:stream";
import type { EntryContext } from "react-router";
import { RouterContextProvider, ServerRouter } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { NonceContext } from "./nonce";
import { requestContext, type RequestInfo } from "./server/context";

export const streamTimeout = 5_000;

/** Builds the per-request context (nonce, request id, logger) for middleware, loaders and actions. */
export function createLoadContext(info: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestContext, info);
  return context;
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
  const { nonce, log } = loadContext.get(requestContext);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
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
          const body = coalescingStream(() => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
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
 * A pass-through stream that joins what is written within one turn of the event loop into one
 * chunk: React writes a page's HTML in pieces of about 2 KB, all at once, and each piece would
 * otherwise cost its own trip through the compression middleware and the socket. Later writes
 * (a Suspense boundary resolving) still flow as they come. `onEnd` runs once the writer ended.
 */
function coalescingStream(onEnd: () => void): Transform {
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
      onEnd();
      flushPending();
      callback();
    },
  });
  function flushPending() {
    scheduled = false;
    if (pending.length === 0) return;
    const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    stream.push(joined);
  }
  return stream;
}

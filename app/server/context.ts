/**
 * Typed request contexts for middleware, loaders and actions (React Router `createContext`).
 * server/app.ts fills `requestContext` in its getLoadContext; it is built into the same bundle as
 * the routes, so the context keys are one set of objects.
 */
import { createContext } from "react-router";
import type { Logger } from "pino";
import type { ScreenName } from "../../contracts/consumer.ts";
import type { AttemptLimits } from "./attempt-limits.server";
import type { PageCacheSlot } from "./page-cache.server";
import type { SessionDataStore } from "./session-store.server";

export interface RequestInfo {
  /** CSP nonce of this response's scripts (docs/architecture/README.md §2 server). */
  nonce: string;
  /** The request id that pino-http logs on every line. */
  requestId: string;
  /** The request's logger (pino child with the request id; redacts secrets). */
  log: Logger;
  /** The browser's address as Express sees it (TRUST_PROXY applies); read from the request when asked. */
  readonly clientIp: string;
  /** Where sessions are kept (server.ts picks the embedded database, PostgreSQL or Redis). */
  sessions: SessionDataStore;
  /** Limits per target account and per mail recipient (server.ts keeps their counters). */
  attemptLimits: AttemptLimits;
  /**
   * Aborted when the server's drain begins (SIGTERM or SIGINT; server.ts, docs/operating.md
   * "Shutdown"): work that would outlast the drain answers at once instead, as the upload queue
   * does (app/server/upstream/upload-queue.server.ts). The same signal for every request.
   */
  draining: AbortSignal;
  /**
   * Present when this request may store its page in the shared page cache (no session or other
   * personal cookie); entry.server.tsx stores it if the route allows (app/server/page-cache.server.ts).
   */
  sharedPage?: PageCacheSlot;
  /**
   * Reads the QR code in a photo (JPEG, PNG, WebP or GIF bytes) on a worker thread, never on the web
   * thread (server/qr-photo.ts; docs/product/pass.md §11.5): the checker's photo of a pass, posted
   * without JavaScript. Nothing of the photo is kept or logged.
   */
  readQrPhoto: (bytes: Uint8Array) => Promise<PhotoRead>;
}

/**
 * What a photo held: the text of its QR code (the first one read), or why there is none:
 * `not_image` (not an image the decoder reads), `too_large` (over maxPassPhotoBytes),
 * `too_many_pixels` (its header declares over maxPassPhotoPixels), `no_code` (no QR code read),
 * `busy` (the decoder's queue is full, or the read took over its time budget).
 */
export type PhotoRead = { ok: true; text: string } | { ok: false; reason: "not_image" | "too_large" | "too_many_pixels" | "no_code" | "busy" };

/** The signed-in user, as the guard middleware found them in the session. */
export interface SessionUser {
  /** The user's access token (never sent to the browser). */
  accessToken: string;
  /** When the access token expires, epoch ms. */
  expiresAt: number;
  /** The e-mail the user signed in with (identity userName). */
  userName: string;
  /** docs/product/data.md §6 enabledScreens, once /checkaccountstatus has fetched them. */
  enabledScreens?: ScreenName[];
  /**
   * Called when an upstream refuses the access token (401): drops it from the session and
   * redirects to /login with the current path as redirectTo.
   * @throws always, the redirect response
   */
  signInAgain(): never;
}

export const requestContext = createContext<RequestInfo>();
export const userContext = createContext<SessionUser>();

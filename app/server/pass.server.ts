/**
 * The SafeWindow Pass on the app's side (docs/product/pass.md): the address a pass names as its
 * issuer, and the published keys the checker at /verify and /.well-known/safewindow-pass-keys
 * serve. The pass itself is made and signed by the consumer API (extension `pass`); the format and
 * the check are contracts/pass.ts, the same in the server and in the browser.
 */
import type { JSONWebKeySet } from "jose";
import { getConfig } from "./config.server";
import { appCookie } from "./cookies.server";
import { publishedPassKeys } from "./upstream/consumer.server";
import { extensionSupported } from "./upstream/extensions.server";
import type { Result } from "./upstream/result.server";
import type { Logger } from "pino";

/**
 * How long the app keeps the consumer API's published keys, ms (30 s). A page holding them may sit
 * 60 s more in the shared page cache: 90 s in all, within the 2 minutes a rotation's key is published
 * before it signs (docs/decisions/0019-pass-signing-key.md).
 */
export const passKeysCacheMs = 30_000;

/**
 * This app's address as a pass's issuer (`iss`) and the origin of its QR's URL: PUBLIC_URL when it is
 * set, else the origin the page was asked at, with the base path; no trailing slash.
 */
export function passIssuerOf(request: Request): string {
  const config = getConfig();
  if (config.PUBLIC_URL) return config.publicUrl;
  return `${new URL(request.url).origin}${config.basePrefix}`;
}

let cached: { at: number; keys: Promise<Result<JSONWebKeySet>> } | undefined;

/**
 * The keys that check passes now, as the consumer API publishes them (GET /consumer/passkeys, open
 * to anyone): kept passKeysCacheMs, one call for the requests that ask at once. A 404 is learnt
 * (the upstream lacks the pass: `notFound`, and nothing offers it); a failure is not kept.
 * @param failed the failure's sentence (the caller's language)
 */
export function passKeys(log: Logger, failed: string): Promise<Result<JSONWebKeySet>> {
  const now = Date.now();
  if (cached && now - cached.at < passKeysCacheMs) return cached.keys;
  const keys = publishedPassKeys(log, failed).then((answer) => {
    if (!answer.ok && cached?.keys === keys) cached = undefined;
    return answer;
  });
  cached = { at: now, keys };
  return keys;
}

/**
 * Whether the consumer API serves the pass (extension `pass`): what was learnt in the last 10
 * minutes, else the answer of its published keys (200 where it exists, 404 where it does not).
 */
export function passOffered(log: Logger, failed: string): Promise<boolean> {
  return extensionSupported(getConfig().CONSUMER_API_URL ?? "", "pass", () => passKeys(log, failed));
}

/** Forgets the kept keys (tests). */
export function forgetPassKeys(): void {
  cached = undefined;
}

/** The checker's "Strong only" setting, remembered on their device for a year (docs/product/pass.md §11.5). */
const strongOnlyCookie = () => appCookie("sw_strong_only", { maxAge: 365 * 24 * 60 * 60 });

/** Whether this device's checker accepts strong windows only. */
export async function strongOnlyOf(request: Request): Promise<boolean> {
  return (await strongOnlyCookie().parse(request.headers.get("Cookie"))) === true;
}

/** Set-Cookie value that remembers the setting (`false` forgets it). */
export function rememberStrongOnly(on: boolean): Promise<string> {
  return on ? strongOnlyCookie().serialize(true) : strongOnlyCookie().serialize(false, { maxAge: 0 });
}

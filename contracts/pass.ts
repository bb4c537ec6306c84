/**
 * The SafeWindow Pass (docs/product/pass.md): a person's open safe window, signed by the consumer
 * API so that anyone can check it without asking the issuer, revealing only the minimum. The format
 * is one rule both sides apply: the consumer API makes and signs the claims (`passClaims`,
 * `signPass`), the app's `/verify` checks a pass on the server and, with the same code, in the
 * browser (`checkPass`, WebCrypto through `jose`).
 *
 * A pass is a JWS in compact serialization, ES256 (ECDSA P-256, SHA-256), as SMART Health Cards
 * are; its protected header holds only `alg` and `kid` (at most 8 characters); its payload holds
 * only these claims:
 * - `iss`: the app's public address (its origin and base path, no trailing slash);
 * - `n`: the initials, the first letter of the first name and of the last name (upper case);
 * - `b`: the birth month and day, `MM-DD` (no year);
 * - `s`: strong-until, NumericDate (seconds; in the past for a window that is weak only);
 * - `iat`: issued at, NumericDate;
 * - `exp`: weak-until, NumericDate: a pass dies with its window, at most 72 hours after the test.
 * Nothing else: no product ID, no name, no year of birth, no lab, no pass id (so no revocation).
 * The QR code carries `<iss>/verify#<pass>`: the fragment is never sent to a server.
 *
 * Imports only `jose`, which runs in Node and in browsers alike (explicit `.ts` extensions only).
 */
import { CompactSign, createLocalJWKSet, errors, jwtVerify } from "jose";
import type { CryptoKey, JSONWebKeySet, KeyObject } from "jose";

/** The only signature algorithm a pass is made or accepted with. */
export const passAlgorithm = "ES256";
/** Longest key id, in characters. */
export const passKidMax = 8;
/** How far a checker's clock may be from the issuer's, in seconds (5 minutes): a pass issued that much in the future, or expired that long ago, still checks. */
export const passClockToleranceSeconds = 300;
/** Longest pass a checker reads, in characters (a real one is about 300). */
export const passMaxChars = 1024;
/** Longest text a checker reads: a pass, or the URL that carries one, in characters. */
export const passTextMaxChars = 2048;
/** The path of the checker under the app's base path. */
export const verifyPath = "/verify";

/** The claims of a pass, by their short names (see the module's comment). */
export interface PassClaims {
  iss: string;
  n: string;
  b: string;
  s: number;
  iat: number;
  exp: number;
}

/** What a checker learns from a pass that checks. Instants as Date. */
export interface CheckedPass {
  ok: true;
  /** `strong` until `strongUntil`, then `weak` until `weakUntil`. */
  window: "strong" | "weak";
  strongUntil: Date;
  weakUntil: Date;
  issuedAt: Date;
  /** Two letters, e.g. `AL`. */
  initials: string;
  /** `MM-DD`. */
  birthMonthDay: string;
}

/**
 * Why a pass does not check:
 * - `expired`: its window (its `exp`) has ended;
 * - `not_yet_valid`: issued later than the checker's clock allows;
 * - `other_issuer`: issued by another address than this checker's, or a QR code's URL leads elsewhere;
 * - `unknown_key`: signed with a key this checker does not publish;
 * - `damaged`: not a pass, altered, cut short, too long, or signed any other way than ES256.
 */
export type PassRefusal = "expired" | "not_yet_valid" | "other_issuer" | "unknown_key" | "damaged";

export type PassCheck = CheckedPass | { ok: false; reason: PassRefusal };

/** The first letter (grapheme) of `name`, upper case; "" for none. */
function initialOf(name: string): string {
  const text = name.normalize("NFC").trim();
  const first = new Intl.Segmenter("und", { granularity: "grapheme" }).segment(text)[Symbol.iterator]().next();
  return first.done ? "" : first.value.segment.toLocaleUpperCase("und");
}

/** A Date as a NumericDate (whole seconds). */
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * The claims of a pass for `person` (the profile's first and last name, and its date of birth
 * `YYYY-MM-DD`) and their window, issued `now` by `iss`.
 * @returns null when the window is not open at `now` (no weak-until, or one not after `now`): no pass.
 */
export function passClaims(
  iss: string,
  person: { firstName: string; lastName: string; dob: string },
  window: { strongSafetyDate: Date | null; weakSafetyDate: Date | null },
  now: Date,
): PassClaims | null {
  const weak = window.weakSafetyDate;
  if (!weak || weak.getTime() <= now.getTime()) return null;
  const strong = window.strongSafetyDate ?? now;
  return {
    iss,
    n: `${initialOf(person.firstName)}${initialOf(person.lastName)}`,
    b: person.dob.slice(5, 10),
    s: seconds(strong),
    iat: seconds(now),
    exp: seconds(weak),
  };
}

/**
 * Signs `claims` as a pass with the ES256 private key `key` of key id `kid`.
 * @throws TypeError when `kid` is empty or longer than passKidMax.
 */
export async function signPass(claims: PassClaims, key: { kid: string; privateKey: CryptoKey | KeyObject }): Promise<string> {
  if (key.kid.length === 0 || key.kid.length > passKidMax) throw new TypeError(`a pass key id has 1 to ${passKidMax} characters`);
  const payload = new TextEncoder().encode(JSON.stringify({ iss: claims.iss, n: claims.n, b: claims.b, s: claims.s, iat: claims.iat, exp: claims.exp }));
  return new CompactSign(payload).setProtectedHeader({ alg: passAlgorithm, kid: key.kid }).sign(key.privateKey);
}

/** The URL a pass's QR code carries: the checker of `iss`, the pass in the fragment. */
export function passUrl(iss: string, pass: string): string {
  return `${iss}${verifyPath}#${pass}`;
}

/**
 * The pass in what a checker was given: the pass itself, or a URL to this checker (`iss` + /verify)
 * carrying it in the fragment; white space around it is ignored.
 * @returns the pass, or a refusal: `other_issuer` for a URL to anywhere else, `damaged` for text
 *   over passTextMaxChars or with no pass in it.
 */
export function passInText(text: string, iss: string): string | { reason: PassRefusal } {
  if (text.length > passTextMaxChars) return { reason: "damaged" };
  const trimmed = text.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      return { reason: "damaged" };
    }
    const checker = new URL(`${iss}${verifyPath}`);
    if (url.origin !== checker.origin || url.pathname !== checker.pathname) return { reason: "other_issuer" };
    const pass = url.hash.slice(1);
    return pass === "" ? { reason: "damaged" } : pass;
  }
  return trimmed === "" ? { reason: "damaged" } : trimmed;
}

/** A claim set that has every claim of a pass with its type (jose checks `iss`, `iat` and `exp`). */
function isPassClaims(payload: Record<string, unknown>): payload is PassClaims & Record<string, unknown> {
  return (
    typeof payload.n === "string" &&
    payload.n.length > 0 &&
    payload.n.length <= 16 &&
    typeof payload.b === "string" &&
    /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(payload.b) &&
    typeof payload.s === "number" &&
    Number.isFinite(payload.s) &&
    typeof payload.exp === "number" &&
    typeof payload.iat === "number"
  );
}

/**
 * Checks a pass (docs/product/pass.md "Checking a pass"): its ES256 signature by a key of `keys`
 * (the JWK Set this checker publishes), its issuer (`iss`, this checker's public address), its
 * claims, and its times against `now`, within passClockToleranceSeconds. Runs in Node and in the
 * browser (WebCrypto). Never throws for any `pass`.
 * @returns the window and the minimum it shows, or why it does not check.
 */
export async function checkPass(pass: string, keys: JSONWebKeySet, iss: string, now: Date): Promise<PassCheck> {
  if (pass.length > passMaxChars || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(pass)) return { ok: false, reason: "damaged" };
  try {
    const { payload } = await jwtVerify(pass, createLocalJWKSet(keys), {
      algorithms: [passAlgorithm],
      issuer: iss,
      currentDate: now,
      clockTolerance: passClockToleranceSeconds,
      // A maximum age makes jose require `iat` and refuse one in the future (beyond the tolerance);
      // the age itself is bounded by `exp`, which ends every pass with its window.
      maxTokenAge: "30d",
      requiredClaims: ["exp"],
    });
    if (!isPassClaims(payload)) return { ok: false, reason: "damaged" };
    const at = now.getTime() / 1000;
    return {
      ok: true,
      window: at < payload.s ? "strong" : "weak",
      strongUntil: new Date(payload.s * 1000),
      weakUntil: new Date(payload.exp * 1000),
      issuedAt: new Date(payload.iat * 1000),
      initials: payload.n,
      birthMonthDay: payload.b,
    };
  } catch (err) {
    return { ok: false, reason: refusalOf(err) };
  }
}

/** The refusal a jose error stands for. */
function refusalOf(err: unknown): PassRefusal {
  if (err instanceof errors.JWTExpired) return "expired";
  if (err instanceof errors.JWTClaimValidationFailed) {
    // A claim missing or of the wrong type is damage; a time that fails its check is the pass's time.
    if (err.reason !== "check_failed") return "damaged";
    if (err.claim === "iss") return "other_issuer";
    if (err.claim === "iat" || err.claim === "nbf") return "not_yet_valid";
    return "damaged";
  }
  if (err instanceof errors.JWKSNoMatchingKey) return "unknown_key";
  return "damaged";
}

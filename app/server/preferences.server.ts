/**
 * Small remembered values kept in cookies (docs/architecture/behaviour.md §4 "Local storage becomes server
 * state"): the username last signed in with (docs/product/data.md §3 "the username"), the cookie-consent answer
 * (docs/product/README.md §1: 150 days). Logout keeps them (it forgets only the flags, see routes/logout.tsx); Wipe
 * forgets the username and the flags (docs/product/data.md §4).
 */
import { appCookie } from "./cookies.server";
import { forgetGuidelinesRead } from "./guidelines.server";
import { rememberTimeZone } from "./timezone.server";

const dayS = 24 * 60 * 60;
/** docs/product/README.md §1, §9: the consent cookie lasts 150 days. */
export const consentMaxAgeSeconds = 150 * dayS;

/**
 * The remembered e-mail address lasts 30 days from the last sign-in (docs/security/accounts.md "Cookies"): long
 * enough to help a returning user, not a year of an address on a shared device.
 */
export const userNameMaxAgeSeconds = 30 * dayS;

const userNameCookie = () => appCookie("sw_username", { maxAge: userNameMaxAgeSeconds, signed: true });
// The consent answer is no secret and grants nothing, so it is not signed.
const consentCookie = () => appCookie("sw_cookie_consent", { maxAge: consentMaxAgeSeconds });

/** The consent cookie's name as browsers send it (with its `__Host-` or `__Secure-` prefix over https). */
export function consentCookieName(): string {
  return consentCookie().name;
}

/** The remembered username, or "" when none. */
export async function rememberedUserName(request: Request): Promise<string> {
  const value = await userNameCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : "";
}

/** Set-Cookie value that remembers `userName`. */
export function rememberUserName(userName: string): Promise<string> {
  return userNameCookie().serialize(userName);
}

/** The cookie-consent answer, or null when the banner has not been answered. */
export async function consentAnswer(request: Request): Promise<"accepted" | "declined" | null> {
  const value = await consentCookie().parse(request.headers.get("Cookie"));
  return value === "accepted" || value === "declined" ? value : null;
}

/** Set-Cookie value that records the consent answer for 150 days. */
export function rememberConsent(answer: "accepted" | "declined"): Promise<string> {
  return consentCookie().serialize(answer);
}

/**
 * Set-Cookie values that forget what this device remembers for SafeWindow (Wipe): the username,
 * the flags (the guidelines-read flag) and the time zone chosen in My Settings.
 */
export async function forgetLocalData(): Promise<string[]> {
  return [await userNameCookie().serialize("", { maxAge: 0 }), await forgetGuidelinesRead(), await rememberTimeZone(null)];
}

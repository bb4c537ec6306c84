/**
 * The app's cookies, all made one way (docs/security/accounts.md "Cookies"): HttpOnly, SameSite=Lax, path =
 * BASE_PATH, Secure when PUBLIC_URL is https. Over https their names carry the browser-enforced
 * prefix: `__Host-` (Secure, no Domain, Path=/) when the app is served at the root, else
 * `__Secure-`, so another site on a sibling domain, or a page served over http, cannot plant or
 * overwrite them.
 */
import { createCookie, type Cookie } from "react-router";
import { getConfig } from "./config.server";

/**
 * A cookie of this app named `name` (over https, with the prefix in front of the name without its
 * leading underscores: `__session` becomes `__Host-session`).
 * @param maxAge lifetime in seconds
 * @param signed signed with SESSION_SECRET, so it cannot be forged
 */
export function appCookie(name: string, { maxAge, signed = false }: { maxAge: number; signed?: boolean }): Cookie {
  const config = getConfig();
  const secure = config.publicUrl.startsWith("https:");
  const prefix = secure ? (config.BASE_PATH === "/" ? "__Host-" : "__Secure-") : "";
  return createCookie(secure ? `${prefix}${name.replace(/^_+/, "")}` : name, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: config.BASE_PATH,
    secrets: signed && config.SESSION_SECRET ? [config.SESSION_SECRET] : [],
    maxAge,
  });
}

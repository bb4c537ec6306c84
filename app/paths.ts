/**
 * The paths (without the base path) of the routes that code outside the route table names: the
 * account forms that server/app.ts and the attempt limits count, the upload form whose body may be
 * larger than a form's (docs/security/limits.md "Limits"), and the pass checker, the one page that may use
 * the camera and WebAssembly (docs/product/pass.md §11.5). app/routes.ts builds those routes from these
 * constants, so renaming a route cannot silently drop its limit.
 */

export const paths = {
  login: "login",
  registration: "registration",
  confirmaccount: "confirmaccount",
  confirmemail: "confirmemail",
  requestpasswordchange: "requestpasswordchange",
  resetpassword: "resetpassword",
  checkconfirmation: "checkconfirmation",
  mytests: "mytests",
  verify: "verify",
} as const;

/** The `/consumer/` alias of an open route's path (docs/product/screens.md §2): `/consumer/confirmemail`, ... */
export const consumerAliasPath = (path: string) => `consumer/${path}`;

/**
 * The route path a request path names, however it is spelled: percent-encoding, case, repeated or
 * trailing slashes, a `.data` suffix (React Router's data requests), the `/consumer/` alias and
 * `basePrefix` (e.g. "/app", or "" at the root) are all ignored. "/Consumer/Login.data/" → "login".
 * @param path a request path, as Express's `req.path` gives it
 * @returns the path without a leading slash ("" for the root)
 */
export function routePathOf(path: string, basePrefix: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = path;
  }
  let p = decoded.toLowerCase().replace(/\/{2,}/g, "/");
  const base = basePrefix.toLowerCase();
  if (base && (p === base || p.startsWith(`${base}/`))) p = p.slice(base.length);
  p = p.replace(/\/+$/, "").replace(/\.data$/, "").replace(/\/+$/, "").replace(/^\/consumer\//, "/");
  return p.slice(1);
}

/**
 * The query parameter and value that mark the request doing the work of a screen that first answers
 * a full load with its working text (app/server/interstitial.server.ts, app/components/Interstitial.tsx).
 */
export const interstitialStep = { name: "step", value: "go" } as const;

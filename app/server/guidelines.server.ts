/**
 * docs/product/screens.md §2 /mytests 'Before You Add': whether the guidelines were read is remembered on this
 * device (docs/product/data.md §3 "the testing-rules-guidelines-read flag"; docs/architecture/behaviour.md §4: a cookie). Logout and Wipe
 * forget it (docs/product/data.md §4: both clear the flags).
 */
import { appCookie } from "./cookies.server";

function guidelinesCookie() {
  return appCookie("sw_guidelines_read", { maxAge: 365 * 24 * 60 * 60 });
}

/** True when this device has read the guidelines. */
export async function guidelinesRead(request: Request): Promise<boolean> {
  return (await guidelinesCookie().parse(request.headers.get("Cookie"))) === true;
}

/** Set-Cookie value that remembers the guidelines as read. */
export function rememberGuidelinesRead(): Promise<string> {
  return guidelinesCookie().serialize(true);
}

/** Set-Cookie value that forgets the flag (Logout, Wipe). */
export function forgetGuidelinesRead(): Promise<string> {
  return guidelinesCookie().serialize(false, { maxAge: 0 });
}

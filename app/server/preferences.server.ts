/**
 * Small remembered values kept in cookies (DESIGN.md §4): the username the user last signed in
 * with (SPEC §3 local storage "the username"). Logout keeps it; Wipe forgets it (SPEC §4).
 */
import { createCookie } from "react-router";
import { getConfig } from "./config.server";

const yearSeconds = 365 * 24 * 60 * 60;

function userNameCookie() {
  const config = getConfig();
  return createCookie("sw_username", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.publicUrl.startsWith("https:"),
    path: config.BASE_PATH,
    secrets: config.SESSION_SECRET ? [config.SESSION_SECRET] : [],
    maxAge: yearSeconds,
  });
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

/** Set-Cookie value that forgets the username (Wipe). */
export function forgetUserName(): Promise<string> {
  return userNameCookie().serialize("", { maxAge: 0 });
}

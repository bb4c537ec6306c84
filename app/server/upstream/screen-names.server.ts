/**
 * Reading getpermissions' `enabledScreens` as any upstream writes it (docs/product/data.md §6 "Screen
 * names"): the product rules name the screens in words ("safe window", "my fun"), our reference service as
 * identifiers ("SafeWindow", "MyFun"). A name is compared ignoring case, spaces and `_`; a name the
 * app does not know is ignored (and logged once per name and process), so one screen the app lacks
 * never fails the permission answer.
 */
import type { Logger } from "pino";
import { screenNames, type ScreenName } from "../../../contracts/consumer.ts";

/** A screen name as compared: lower case, without spaces and `_` ("My_Fun", "my fun" → "myfun"). */
export function screenKey(name: string): string {
  return name.toLowerCase().replace(/[\s_]+/g, "");
}

const byKey = new Map<string, ScreenName>(screenNames.map((name) => [screenKey(name), name]));

/** The unknown names logged already (per process), at most `maxLoggedNames` so that an upstream cannot grow it. */
const loggedUnknown = new Set<string>();
const maxLoggedNames = 100;

/**
 * The screens of an `enabledScreens` answer that the app knows, as the app names them
 * (contracts/consumer.ts `screenNames`), each once, in the answer's order. Entries that are not
 * strings, and names the app does not know, are left out; each unknown name is logged (warn) the
 * first time this process sees it, with the upstream call's logger `log`.
 */
export function knownScreens(names: readonly unknown[], log: Pick<Logger, "warn">): ScreenName[] {
  const known: ScreenName[] = [];
  for (const name of names) {
    const screen = typeof name === "string" ? byKey.get(screenKey(name)) : undefined;
    if (screen) {
      if (!known.includes(screen)) known.push(screen);
      continue;
    }
    const shown = typeof name === "string" ? name.slice(0, 64) : typeof name;
    if (loggedUnknown.has(shown) || loggedUnknown.size >= maxLoggedNames) continue;
    loggedUnknown.add(shown);
    log.warn({ upstreamCall: "getPermissions", screenName: shown }, "enabledScreens names a screen this app does not know; ignored");
  }
  return known;
}

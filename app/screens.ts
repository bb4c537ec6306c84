/**
 * The main screens (docs/product/screens.md §2 bottom navigation; §6 screens enabled by name): which consumer-API
 * screen name each path belongs to, and the tabs. One table for the tab bar and the permission
 * check; paths match exactly.
 */
import type { ScreenName } from "./server/upstream/consumer.server";

export interface Tab {
  screen: ScreenName;
  /** The tab's own path. */
  to: string;
  label: string;
  /** Every path that belongs to this screen (exact matches). */
  paths: string[];
}

/**
 * The bottom tabs in docs/product/screens.md §2's order (safe window, my tests, people, settings), with the venue
 * screens of docs/venues.md after my tests, as docs/product/data.md §6 names them (my fun, locations).
 */
export const tabs: Tab[] = [
  { screen: "SafeWindow", to: "/safewindow", label: "Safe Window", paths: ["/safewindow", "/safewindow/pass", "/safewindow/pass.pdf"] },
  { screen: "MyTests", to: "/mytests", label: "My Tests", paths: ["/mytests", "/testdetail", "/testresultviewer", "/testresultviewer/image"] },
  { screen: "MyFun", to: "/myfun", label: "My Fun", paths: ["/myfun"] },
  { screen: "Locations", to: "/locations", label: "Locations", paths: ["/locations"] },
  { screen: "Friends", to: "/people", label: "People", paths: ["/people", "/follower", "/following", "/addpublisher"] },
  { screen: "Settings", to: "/settings", label: "Settings", paths: ["/settings", "/personalinfo", "/settings/data"] },
];

/**
 * Screens without a tab: the dispute reviewers' (the extension screen name DisputeReviews, enabled only
 * for reviewers; reached from My Settings).
 */
export const reviewPaths = { queue: "/reviews", dispute: "/reviews/dispute", image: "/reviews/image", history: "/reviews/history" } as const;
const otherScreens: Pick<Tab, "screen" | "paths">[] = [{ screen: "DisputeReviews", paths: Object.values(reviewPaths) }];

/** The screen a path belongs to, or undefined for paths outside the main screens. */
export function screenOf(pathname: string): ScreenName | undefined {
  return [...tabs, ...otherScreens].find((screen) => screen.paths.includes(pathname))?.screen;
}

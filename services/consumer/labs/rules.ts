// The safe-window rules (docs/product/labs.md §10.7) as the reference consumer API applies them:
// hours counted from specimen collection, in UTC; a window is open while now < collection + hours.
// The hours themselves are the product's, stated once in contracts/rules.ts (the app's testing
// philosophy page shows the same table).
import { windowHours } from "../../../contracts/rules.ts";
import type { Method } from "./types.ts";

/** Strong and weak window lengths per test method, in hours from specimen collection (contracts/rules.ts `windowHours`). */
export const WINDOW_RULES: Readonly<Record<Method, { readonly strongHours: number; readonly weakHours: number }>> = windowHours;

/** A collection time later than the server's clock by more than this is refused. */
export const COLLECTION_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The disease every accepted test detects (docs/product/data.md §3 diseaseName). */
export const DISEASE_NAME = "COVID-19";

// The safe-window rules table (docs/product/labs.md §10.7), as data: hours counted
// from specimen collection, in UTC; a window is open while now < collection + hours.
import type { Method } from "./types.ts";

/** Strong and weak window lengths per test method, in hours from specimen collection. */
export const WINDOW_RULES: Record<Method, { strongHours: number; weakHours: number }> = {
  // EU DCC template is 72 h for NAAT (our weak window); 48 h is the strictest national rule.
  NAAT: { strongHours: 48, weakHours: 72 },
  // EU DCC template is 48 h for rapid antigen (weak); 24 h is the strictest national rule.
  antigen: { strongHours: 24, weakHours: 48 },
};

/** A collection time later than the server's clock by more than this is refused. */
export const COLLECTION_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The disease every accepted test detects (docs/product/data.md §3 diseaseName). */
export const DISEASE_NAME = "COVID-19";

/**
 * Every user-facing string of the product rules (docs/product/), verbatim (typos included), named for what it says.
 * Strings the product rules do not give are marked "ours" and follow the same tone.
 * Source: docs/product/screens.md §2, §5, §8; {product} is SafeWindow.
 *
 * One export per string, in one module per area (app/messages/), all re-exported here and imported
 * as a namespace (`import * as messages from "~/messages"`): the bundler then keeps in each page's
 * JavaScript only the areas that page uses (docs/architecture/README.md §2 "client chunks").
 */
export * from "./messages/shell.ts";
export * from "./messages/account.ts";
export * from "./messages/profile.ts";
export * from "./messages/settings.ts";
export * from "./messages/results.ts";
export * from "./messages/follow.ts";
export * from "./messages/reviews.ts";
export * from "./messages/venues.ts";
export * from "./messages/pages.ts";
export * from "./messages/data-export.ts";
export * from "./messages/pass.ts";

/**
 * The Spanish catalogue: one module per area of app/messages/, as the English one (app/messages.ts),
 * worded in the neutral register of US health services (usted), in the terms of
 * docs/glossary-es.md. app/messages/catalogues.ts checks that it has every English key.
 */
export * from "./es/shell.ts";
export * from "./es/account.ts";
export * from "./es/profile.ts";
export * from "./es/settings.ts";
export * from "./es/results.ts";
export * from "./es/follow.ts";
export * from "./es/reviews.ts";
export * from "./es/venues.ts";
export * from "./es/pages.ts";
export * from "./es/data-export.ts";
export * from "./es/pass.ts";

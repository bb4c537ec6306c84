/**
 * The two search boxes (GET forms): people on Add (docs/product/data.md §5: at least 3 non-blank
 * characters; a name, product ID or e-mail address, so at most an address's 254 characters) and the
 * ZIP code on Locations (docs/venues.md: five digits). The loaders validate with these schemas and
 * hand their HTML constraints to the page (app/server/form-constraints.server.ts).
 */
import * as z from "zod/mini";
import * as messages from "../messages";
import { singleLine } from "./text";

/** docs/product/data.md §5, §9: search starts only with at least 3 non-blank characters. */
export const searchMinimum = 3;

/** At most this many characters are searched for (an e-mail address's limit); longer input is cut here, as the input's maxLength cuts it. */
export const peopleSearchMax = 254;

export const peopleSearchSchema = z.object({
  q: z
    .string()
    .check(
      z.maxLength(peopleSearchMax, messages.searchInvalid),
      z.refine(singleLine, messages.searchInvalid),
      z.refine((value) => value.replace(/\s/g, "").length >= searchMinimum, messages.searchTooShort),
    ),
});

export const zipSearchSchema = z.object({
  zip: z.string().check(z.trim(), z.maxLength(5, messages.zipInvalid), z.regex(/^\d{5}$/, messages.zipInvalid)),
});

/**
 * The two search boxes (GET forms): people on Add (docs/product/data.md §5: at least 3 non-blank
 * characters; a name, product ID or e-mail address, so at most an address's 254 characters) and the
 * ZIP code on Locations (docs/venues.md: five digits). The loaders validate with these schemas and
 * hand their HTML constraints to the page (app/server/form-constraints.server.ts). Each schema is a
 * function of its words (app/forms/words.ts), so its messages are in the request's language.
 */
import * as z from "zod/mini";
import { singleLine } from "./text";
import { perWords, type FormWords } from "./words";

/** docs/product/data.md §5, §9: search starts only with at least 3 non-blank characters. */
export const searchMinimum = 3;

/** At most this many characters are searched for (an e-mail address's limit); longer input is cut here, as the input's maxLength cuts it. */
export const peopleSearchMax = 254;

/** The words of the people search's checks. */
export const peopleSearchWordKeys = ["searchInvalid", "searchTooShort"] as const;

export const peopleSearchSchema = perWords((words: FormWords<typeof peopleSearchWordKeys>) =>
  z.object({
    q: z
      .string()
      .check(
        z.maxLength(peopleSearchMax, words.searchInvalid),
        z.refine(singleLine, words.searchInvalid),
        z.refine((value) => value.replace(/\s/g, "").length >= searchMinimum, words.searchTooShort),
      ),
  }),
);

/** The words of the ZIP code search's check. */
export const zipSearchWordKeys = ["zipInvalid"] as const;

export const zipSearchSchema = perWords((words: FormWords<typeof zipSearchWordKeys>) =>
  z.object({
    zip: z.string().check(z.trim(), z.maxLength(5, words.zipInvalid), z.regex(/^\d{5}$/, words.zipInvalid)),
  }),
);

/**
 * docs/product/labs.md §10.8 Add by link: the result link from the lab's message, required, at most 2048
 * characters. The consumer API judges the rest (https, the lab's host, what the site answers) and
 * says why a link is refused. The schema is a function of its words (app/forms/words.ts).
 */
import * as z from "zod/mini";
import { perWords, type FormWords } from "./words";

export const resultLinkMax = 2048;

/** The words of the result link's checks. */
export const resultLinkWordKeys = ["resultLinkRequired", "resultLinkTooLong"] as const;

export const resultLinkSchema = perWords((words: FormWords<typeof resultLinkWordKeys>) =>
  z.object({
    url: z
      .string({ error: words.resultLinkRequired })
      .check(z.trim(), z.minLength(1, words.resultLinkRequired), z.maxLength(resultLinkMax, words.resultLinkTooLong)),
  }),
);

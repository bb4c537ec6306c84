/**
 * docs/product/labs.md §10.8 Add by link: the result link from the lab's message, required, at most 2048
 * characters. The consumer API judges the rest (https, the lab's host, what the site answers) and
 * says why a link is refused.
 */
import * as z from "zod/mini";
import * as messages from "../messages";

export const resultLinkMax = 2048;

export const resultLinkSchema = z.object({
  url: z
    .string({ error: messages.resultLinkRequired })
    .check(z.trim(), z.minLength(1, messages.resultLinkRequired), z.maxLength(resultLinkMax, messages.resultLinkTooLong)),
});

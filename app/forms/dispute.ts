/**
 * docs/product/data.md §5 Dispute comment: required (Submit is disabled when empty), at most 1000 characters.
 * The schema is a function of its words (app/forms/words.ts), so its messages are in the request's language.
 */
import * as z from "zod/mini";
import { multiLine } from "./text";
import { perWords, type FormWords } from "./words";

export const disputeCommentMax = 1000;

/** The words of the dispute form's checks. */
export const disputeWordKeys = ["disputeCommentRequired", "disputeCommentTooLong", "controlCharacters"] as const;

export const disputeSchema = perWords((words: FormWords<typeof disputeWordKeys>) =>
  z.object({
    disputeComment: z
      .string({ error: words.disputeCommentRequired })
      .check(
        z.trim(),
        z.minLength(1, words.disputeCommentRequired),
        z.maxLength(disputeCommentMax, words.disputeCommentTooLong),
        z.refine(multiLine, words.controlCharacters),
      ),
  }),
);

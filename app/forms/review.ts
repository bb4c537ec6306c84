/**
 * A reviewer's decision on a dispute (docs/product/calls.md §7 extensions "Dispute reviews"): accept or decline,
 * with the response the user reads as disputeResponseComment: required, at most 1000 characters, like
 * the dispute comment. The schema is a function of its words (app/forms/words.ts).
 */
import * as z from "zod/mini";
import { multiLine } from "./text";
import { perWords, type FormWords } from "./words";

export const reviewResponseMax = 1000;

/** The words of the review form's checks. */
export const reviewWordKeys = ["reviewDecisionRequired", "reviewResponseRequired", "reviewResponseTooLong", "controlCharacters"] as const;

export const reviewSchema = perWords((words: FormWords<typeof reviewWordKeys>) =>
  z.object({
    decision: z.enum(["accept", "decline"], { error: words.reviewDecisionRequired }),
    responseComment: z
      .string({ error: words.reviewResponseRequired })
      .check(
        z.trim(),
        z.minLength(1, words.reviewResponseRequired),
        z.maxLength(reviewResponseMax, words.reviewResponseTooLong),
        z.refine(multiLine, words.controlCharacters),
      ),
  }),
);

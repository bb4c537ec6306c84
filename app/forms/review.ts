/**
 * A reviewer's decision on a dispute (docs/product/calls.md §7 extensions "Dispute reviews"): accept or decline,
 * with the response the user reads as disputeResponseComment: required, at most 1000 characters, like
 * the dispute comment.
 */
import * as z from "zod/mini";
import * as messages from "../messages";
import { multiLine } from "./text";

export const reviewResponseMax = 1000;

export const reviewSchema = z.object({
  decision: z.enum(["accept", "decline"], { error: messages.reviewDecisionRequired }),
  responseComment: z
    .string({ error: messages.reviewResponseRequired })
    .check(
      z.trim(),
      z.minLength(1, messages.reviewResponseRequired),
      z.maxLength(reviewResponseMax, messages.reviewResponseTooLong),
      z.refine(multiLine, messages.controlCharacters),
    ),
});

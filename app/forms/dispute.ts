/** docs/product/data.md §5 Dispute comment: required (Submit is disabled when empty), at most 1000 characters. */
import * as z from "zod/mini";
import * as messages from "../messages";
import { multiLine } from "./text";

export const disputeCommentMax = 1000;

export const disputeSchema = z.object({
  disputeComment: z
    .string({ error: messages.disputeCommentRequired })
    .check(
      z.trim(),
      z.minLength(1, messages.disputeCommentRequired),
      z.maxLength(disputeCommentMax, messages.disputeCommentTooLong),
      z.refine(multiLine, messages.controlCharacters),
    ),
});

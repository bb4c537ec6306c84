/** docs/product.md §5 Dispute comment: required (Submit is disabled when empty), at most 1000 characters. */
import { z } from "zod";
import { messages } from "../messages";
import { multiLine } from "./text";

export const disputeCommentMax = 1000;

export const disputeSchema = z.object({
  disputeComment: z
    .string({ error: messages.disputeCommentRequired })
    .trim()
    .min(1, messages.disputeCommentRequired)
    .max(disputeCommentMax, messages.disputeCommentTooLong)
    .refine(multiLine, messages.controlCharacters),
});

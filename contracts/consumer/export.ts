/**
 * The person's own data (an extension): GET /consumer/export, everything the consumer API keeps
 * about the user.
 *
 * Part of the consumer API's contract (contracts/consumer.ts, which lists every call in one
 * `consumerCalls`); imported by Node's type stripping too: explicit `.ts` extensions only.
 */
import { z } from "zod";
import type { CallContracts } from "../call.ts";
import { instant } from "./fields.ts";
import { reviewDecisionSchema } from "./disputes.ts";
import { consumerSchema } from "./profile.ts";
import { subscriptionSchema } from "./follows.ts";
import { propertyValueSchema, testResultSchema } from "./results.ts";
import { visitSchema } from "./venues.ts";

/** Extension (the person's own data): a decision on one of the user's disputes, as the export tells it. */
export const exportedReviewSchema = z
  .object({
    decision: reviewDecisionSchema,
    responseComment: z.string(),
    reviewedAt: instant,
  })
  .meta({ description: "A decision on the user's dispute." });

/** Extension (the person's own data): a result with everything stored about it. */
export const exportedResultSchema = testResultSchema
  .extend({
    uploadedAt: instant.meta({ description: "When the PDF was added." }),
    disputedAt: instant.nullable().meta({ description: "When the dispute was submitted; null without one." }),
    propertyValues: z.array(propertyValueSchema),
    reviews: z.array(exportedReviewSchema),
    originalPdf: z.boolean().meta({ description: "True when the original PDF is kept (getPdf serves it)." }),
  })
  .meta({ description: "A test result with its checks, its dispute's decisions and whether its PDF is kept." });

/** Extension (the person's own data): GET /consumer/export, everything the consumer API keeps about the user. */
export const dataExportSchema = z
  .object({
    exportedAt: instant,
    email: z.string().nullable().meta({ description: "The e-mail address the API last saw in the user's token (search by e-mail finds it); null when none." }),
    language: z
      .enum(["en", "es"])
      .nullable()
      .optional()
      .meta({ description: "The language the API writes the user's mail in, the last one their calls asked for (docs/product/calls.md §7.4 \"The mail's language\"); null when none said." }),
    profile: consumerSchema.nullable().meta({ description: "The profile; null when the user has none." }),
    results: z.array(exportedResultSchema),
    followers: z.array(subscriptionSchema).meta({ description: "People who follow the user or asked to (as subscribers/)." }),
    following: z.array(subscriptionSchema).meta({ description: "People the user follows or asked to follow (as publishers/)." }),
    visits: z.array(visitSchema).meta({ description: "Every check made on the user at a venue, newest first (as getcurrentuservisits/, all of them)." }),
  })
  .meta({ description: "The user's data: profile, results, disputes, follow relations and visits. The images and PDFs are served by getImage and getPdf." });
export type DataExport = z.infer<typeof dataExportSchema>;

/** The export call, in the order of `consumerCalls`. */
export const exportCalls = {
  exportData: {
    method: "GET",
    path: "/consumer/export",
    summary: "Extension (the person's own data): everything the API keeps about the signed-in user, as JSON; the images and original PDFs by getImage and getPdf.",
    auth: "userToken",
    extension: "data",
    answer: dataExportSchema,
  },
} as const satisfies CallContracts;

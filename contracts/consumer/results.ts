/**
 * The test-result calls of the consumer API (docs/product/calls.md §7.2, docs/product/labs.md §10):
 * the results and their checked fields, their images and PDFs, uploads, results by the lab's link,
 * and the refusals of all of these.
 *
 * Part of the consumer API's contract (contracts/consumer.ts, which lists every call in one
 * `consumerCalls`); imported by Node's type stripping too: explicit `.ts` extensions only.
 */
import { z } from "zod";
import type { CallContracts } from "../call.ts";
import { extension } from "../extension.ts";
import { maxUploadBytes, uploadField } from "../limits.ts";
import { apiErrorSchema, badQuery, id, instant, safetyDate, zeroOrOne } from "./fields.ts";

/** docs/product/data.md §3 test result outcomes (a lab's Void or Invalid is answered as Inconclusive). */
export const testOutcomes = ["Negative", "Positive", "Inconclusive"] as const;

export const testOutcomeSchema = z.enum(testOutcomes);
export type TestOutcome = z.infer<typeof testOutcomeSchema>;

/** docs/product/data.md §3 Test result, as GET /testresult/getcurrentusertestresults/ lists it. */
export const testResultSchema = z
  .object({
    sF_TestResultId: id("The result's id"),
    valid: zeroOrOne("1 when the report matched the profile (docs/product/labs.md §10)."),
    disputeStatus: zeroOrOne("0 none, 1 submitted or disputed."),
    diseaseName: z.string(),
    testDate: instant.meta({ description: "When the specimen was collected, ISO 8601 instant." }),
    testingCompanyName: z.string(),
    publicName: z.string(),
    testName: z.string().meta({ description: "The test's name as the lab prints it." }),
    result: extension(testOutcomeSchema, "outcome"),
    strongSafetyDate: safetyDate("result's own strong").meta({ description: "The result's own strong window; null unless valid and negative." }),
    weakSafetyDate: safetyDate("result's own weak").meta({ description: "The result's own weak window; null unless valid and negative." }),
    disputeComment: z.string().nullable(),
    disputeResponseComment: z.string().nullable(),
    pageCount: extension(
      z
        .number()
        .int()
        .min(1)
        .optional()
        .meta({
          description:
            "Extension of docs/product/data.md §3: the pages of the result's PDF, each served by getImage's `page` parameter. Absent where the upstream serves page 1 only (the product rules' call, or a result stored before its PDF was kept).",
        }),
      "pages",
    ),
    fetchedFrom: extension(
      z
        .string()
        .nullable()
        .optional()
        .meta({ description: "Extension (results by link, docs/product/labs.md §10.8): the lab's host the result was fetched from; null or absent for an upload." }),
      "links",
    ),
    proof: extension(
      z
        .object({
          kind: z.enum(["shc", "dcc", "link", "document"]).meta({ description: "shc, dcc: a verified signed code; link: fetched from the lab; document: the document checks alone." }),
          label: z.string().meta({ description: "In words: `signed (SMART Health Card, <issuer>)`, `signed (EU DCC, <country>)`, `fetched from the lab`, `document checks`." }),
          unverifiedSignature: z
            .enum(["SMART Health Card", "EU DCC"])
            .nullable()
            .meta({ description: "A signed code whose signature could not be tied to a known issuer (the document checks decided); null otherwise." }),
          disagreement: z
            .string()
            .nullable()
            .optional()
            .meta({ description: "Where a verified signed code disagrees with the PDF's text (the result is then invalid), e.g. `Result (QR: Positive; PDF: Negative)`; null otherwise." }),
        })
        .optional()
        .meta({ description: "Extension (docs/product/labs.md §10.9): the strongest evidence the result carries." }),
      "proof",
    ),
  })
  .meta({ description: "A test result." });
export type TestResult = z.infer<typeof testResultSchema>;

/** docs/product/data.md §3 Test result property value: one checked field and what differed. */
export const propertyValueSchema = z
  .object({
    sF_TestResultPropertyValueId: id("The property value's id"),
    name: z.string().meta({ description: "`First Name`, `Last Name` or `Date of Birth`; ours, an extension: `Manual Review`, an accepted dispute (`Accepted on review by a reviewer at <UTC time>`: which reviewer is not said)." }),
    matchInfo: z.string().nullable().meta({ description: "Null when the field matched, else `PDF: <as printed>; profile: <as stored>`." }),
  })
  .meta({ description: "A checked field of a test result." });
export type PropertyValue = z.infer<typeof propertyValueSchema>;

/** docs/product/data.md §3 "Upload: success, consumerMessage": a result stored, valid or not. */
export const uploadAnswerSchema = z
  .object({
    success: z.literal(true),
    consumerMessage: z.string().meta({ description: "What to tell the user: validated or not, and what it means for the window. Instants in it are written `YYYY-MM-DD HH:MM UTC` (the app shows them in the user's zone)." }),
    sF_TestResultId: extension(id("The stored result's id"), "ids"),
  })
  .meta({ description: "A test result stored." });
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

/**
 * Why a test-result call was refused. Uploads: no_file, too_large, not_pdf, archive, wrapped,
 * appended, javascript, launch, embedded_file, actions, corrupt, encrypted, too_many_pages,
 * too_complex, busy, duplicate, no_text, printed, changed, unknown_lab, unreadable, future.
 * Results by link, besides those: link_invalid, link_not_https, link_unknown_host, link_address,
 * link_redirect, link_unreachable, link_not_found, link_slow, link_type, link_wrong_lab, criteria.
 * Disputes: comment_required, comment_too_long, result_valid, already_disputed. Reviews (an
 * extension): response_required, response_too_long, already_reviewed. Images:
 * page_not_found. Any call: not_found, no_profile.
 */
export const resultRefusalSchema = z
  .object({
    success: z.literal(false),
    consumerMessage: z.string().meta({ description: "A sentence for the user: what went wrong and what to do (docs/product/messages.md §8 Upload fails). Instants in it are written `YYYY-MM-DD HH:MM UTC`." }),
    reason: extension(z.string().meta({ description: "A stable code for programs (see the list above)." }), "reasons"),
  })
  .meta({ description: "A refused test-result call." });
export type ResultRefusal = z.infer<typeof resultRefusalSchema>;

export const propertyValuesQuerySchema = z.object({ sfTestResultId: z.string().min(1, "is required") });
export const imageQuerySchema = z.object({
  testResultId: z.string().min(1, "is required"),
  page: extension(
    z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/, "is a page number from 1")
      .transform(Number)
      .optional()
      .meta({ description: "Extension of docs/product/calls.md §7: the page to show, 1-based (default 1); up to the result's pageCount." }),
    "pages",
  ),
});

/** POST /testresult/addtestresultmultipart/: the PDF in field `multipartData` (at most maxUploadBytes). */
/** Extension: GET /testresult/getpdf/ query. */
export const pdfQuerySchema = z.object({ testResultId: z.string().min(1, "is required") });

export const uploadRequestSchema = z.object({
  [uploadField]: z.file().max(maxUploadBytes).meta({ description: "The test result PDF, exactly as the testing company issued it; at most 10 MiB." }),
});

/** Longest result link accepted, characters (docs/product/labs.md §10.8). */
export const maxResultLinkLength = 2048;

/** GET /testresult/addtestresulturl/ and /generatetestresulttextobjectsurl/ query: the lab's result link. */
export const resultLinkQuerySchema = z.object({
  url: z.string().meta({ description: `The result's link as the lab sent it: https, on a host an accepted lab declares (docs/product/labs.md §10.8); at most ${maxResultLinkLength} characters.` }),
});

/** What a criterion of addtestresultlink says where to read. */
export const criterionPropertySchema = z
  .enum(["name", "givenNames", "lastName", "dateOfBirth", "collectionTime", "testType", "result"])
  .meta({ description: "name: `LAST, GIVEN` in one field (labs that print it so); givenNames and lastName: two fields (the others)." });
export type CriterionProperty = z.infer<typeof criterionPropertySchema>;

/** POST /testresult/addtestresultlink/ body: the link and, per field, the text that labels it on the lab's page. */
export const resultLinkRequestSchema = z.object({
  url: z.string().meta({ description: "As resultLinkQuerySchema's url." }),
  criteria: z
    .array(
      z.object({
        property: criterionPropertySchema,
        label: z.string().max(200).meta({ description: "The text printed before the value (a text object of generatetestresulttextobjectsurl)." }),
      }),
    )
    .max(10)
    .meta({ description: "One per field the lab prints; each must name the label the lab prints that field after (they are checked, never trusted)." }),
});

/** GET /testresult/generatetestresulttextobjectsurl/: the text of the document at a lab's link, with positions. */
export const textObjectsAnswerSchema = z
  .object({
    success: z.literal(true),
    publicName: z.string().meta({ description: "The lab whose host the link is on." }),
    serves: z.enum(["pdf", "page"]).meta({ description: "pdf: the link served the report PDF (page 1 is read); page: an HTML result page." }),
    textObjects: z
      .array(
        z.object({
          text: z.string(),
          line: z.number().int().min(0).meta({ description: "The line, 0 at the top." }),
          column: z.number().int().min(0).meta({ description: "The run on its line, 0 at the left (a table cell, or text set apart by a column gap)." }),
        }),
      )
      .meta({ description: "Every run of text, top to bottom, left to right." }),
  })
  .meta({ description: "The text objects of a lab's document." });
export type TextObjectsAnswer = z.infer<typeof textObjectsAnswerSchema>;

/** The 404 of a call on one of the user's results. */
export const resultNotFound = { description: "not_found or no_profile: no such result of this user.", schema: resultRefusalSchema };
const linkRefusals = {
  400: { description: "link_invalid or criteria (ResultRefusal); a malformed query or body (ApiError invalid_request).", schema: z.union([resultRefusalSchema, apiErrorSchema]) },
  404: { description: "no_profile: the user has no profile to match the result to.", schema: resultRefusalSchema },
  413: { description: "too_large: the document at the link is over 10 MiB.", schema: resultRefusalSchema },
  422: { description: "The link or what the lab's site answered was refused (reason says why; consumerMessage what to do); or the document, as an upload's.", schema: resultRefusalSchema },
  503: { description: "busy: too many uploads at once; try again in a minute.", schema: resultRefusalSchema },
};

/** The test-result calls, in the order of `consumerCalls`. */
export const resultCalls = {
  getCurrentUserTestResults: {
    method: "GET",
    path: "/testresult/getcurrentusertestresults/",
    summary: "The signed-in user's test results, newest collection first.",
    auth: "userToken",
    answer: z.array(testResultSchema),
  },
  testResultPropertyValues: {
    method: "GET",
    path: "/testresult/testresultpropertyvalues/",
    summary: "A result's checked fields (first name, last name, date of birth) and what differed.",
    auth: "userToken",
    query: propertyValuesQuerySchema,
    answer: z.array(propertyValueSchema),
    errorAnswers: { 400: badQuery, 404: resultNotFound },
  },
  getImage: {
    method: "GET",
    path: "/testresult/getimage/",
    summary: "Page 1 of a result's PDF (or the `page` asked for, an extension) as a base64 JPEG (no `data:` prefix) that fits 1250x1000.",
    auth: "userToken",
    query: imageQuerySchema,
    answer: z.base64().meta({ description: "A JPEG, base64." }),
    errorAnswers: {
      400: badQuery,
      404: { description: "not_found, no_profile or page_not_found: no such result of this user, or no such page of it.", schema: resultRefusalSchema },
    },
  },
  getPdf: {
    method: "GET",
    path: "/testresult/getpdf/",
    summary: "Extension (the person's own data): the original PDF of one of the user's results, exactly as uploaded, base64.",
    auth: "userToken",
    extension: "data",
    query: pdfQuerySchema,
    answer: z.base64().meta({ description: "The PDF, base64." }),
    errorAnswers: {
      400: badQuery,
      404: { description: "not_found or no_profile: no such result of this user, or its PDF is not kept (a result stored before PDFs were kept).", schema: resultRefusalSchema },
    },
  },
  addTestResultMultipart: {
    method: "POST",
    path: "/testresult/addtestresultmultipart/",
    summary: "Uploads a test result PDF: checked, read, matched to the profile and stored (docs/architecture/results-pipeline.md §5).",
    auth: "userToken",
    multipart: uploadRequestSchema,
    answer: uploadAnswerSchema,
    errorAnswers: {
      400: { description: "no_file: no file in multipartData, not multipart, or malformed.", schema: resultRefusalSchema },
      404: { description: "no_profile: the user has no profile to match the result to.", schema: resultRefusalSchema },
      413: { description: "too_large: the file is over 10 MiB.", schema: resultRefusalSchema },
      422: { description: "The file was refused (reason says why; consumerMessage what to do).", schema: resultRefusalSchema },
      503: { description: "busy: too many uploads at once; try again in a minute.", schema: resultRefusalSchema },
    },
  },
  addTestResultUrl: {
    method: "GET",
    path: "/testresult/addtestresulturl/",
    summary: "Adds a test result by the lab's own link: fetched on the server from the lab's declared host, then checked like an upload (docs/product/labs.md §10.8).",
    auth: "userToken",
    query: resultLinkQuerySchema,
    answer: uploadAnswerSchema,
    errorAnswers: linkRefusals,
  },
  addTestResultLink: {
    method: "POST",
    path: "/testresult/addtestresultlink/",
    summary: "As addTestResultUrl, reading each field after the label its criterion names (checked against the lab's layout).",
    auth: "userToken",
    json: resultLinkRequestSchema,
    answer: uploadAnswerSchema,
    errorAnswers: linkRefusals,
  },
  generateTestResultTextObjectsUrl: {
    method: "GET",
    path: "/testresult/generatetestresulttextobjectsurl/",
    summary: "The text objects of the document at a lab's link (page 1 of a PDF, or an HTML result page): the material criteria are chosen from. Nothing is stored.",
    auth: "userToken",
    query: resultLinkQuerySchema,
    answer: textObjectsAnswerSchema,
    errorAnswers: linkRefusals,
  },
} as const satisfies CallContracts;

/**
 * conform's useForm with the app's validation habits (docs/product.md §5 "Validation runs on blur"): the
 * route's schema validates on blur and again on input once a field showed an error, and the
 * server's last reply (conform's SubmissionResult) fills in what it found.
 *
 * The schemas are zod/mini (app/forms), the same objects the route actions parse with conform's
 * parseWithZod on the server. In the browser they run through `parseSubmission` below instead of
 * parseWithZod: @conform-to/zod's coercion imports classic zod, whose methods cannot be tree-shaken
 * (about 27 KiB gzip more on every page with a form; docs/architecture.md §7.2).
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { formatPaths, parse, type Submission } from "@conform-to/dom";
import { safeParse, type $ZodType, type input, type output } from "zod/v4/core";

type FormSchema = $ZodType<Record<string, unknown>, Record<string, unknown>>;

export function useValidatedForm<Schema extends FormSchema>(
  schema: Schema,
  lastResult: SubmissionResult<string[]> | undefined,
  options: { id?: string; defaultValue?: Partial<input<Schema>> } = {},
) {
  return useForm<input<Schema> & Record<string, unknown>, output<Schema>>({
    id: options.id,
    lastResult,
    defaultValue: options.defaultValue as never,
    onValidate: ({ formData }) => parseSubmission(formData, schema) as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}

/**
 * The browser's reading of a form post, as conform's parseWithZod makes it on the server for the
 * schemas of app/forms: an empty text field counts as absent (so the field's "required" message
 * applies), and each issue's message is listed under its field's name ("" for the form).
 * @returns conform's Submission: the parsed value, or `error` by field name
 */
export function parseSubmission<Schema extends FormSchema>(formData: FormData, schema: Schema): Submission<input<Schema>, string[], output<Schema>> {
  return parse(formData, {
    resolve(payload) {
      const result = safeParse(schema, withoutEmptyValues(payload));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const name = formatPaths(issue.path.map((key) => (typeof key === "symbol" ? String(key) : key)));
        (error[name] ??= []).push(issue.message);
      }
      return { error };
    },
  }) as Submission<input<Schema>, string[], output<Schema>>;
}

/** `value` with every empty string (an empty field) and empty file input left out, at any depth. */
function withoutEmptyValues(value: unknown): unknown {
  if (value === "") return undefined;
  if (typeof File !== "undefined" && value instanceof File && value.name === "" && value.size === 0) return undefined;
  if (Array.isArray(value)) return value.map(withoutEmptyValues);
  if (value !== null && typeof value === "object" && !(value instanceof Blob)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutEmptyValues(item)]));
  }
  return value;
}

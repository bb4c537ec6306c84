/**
 * The browser's reading of a form post with a schema of app/forms, as conform's parseWithZod makes
 * it in the route actions (docs/architecture/conventions.md §9.2). Loaded by useValidatedForm when the user
 * first reaches a form, with the form's schema; never part of a page's first load.
 */
import { formatPaths, parse, type Submission } from "@conform-to/dom";
import { safeParse, type $ZodType, type input, type output } from "zod/v4/core";

/** A form schema of app/forms (zod/mini). */
export type FormSchema = $ZodType<Record<string, unknown>, Record<string, unknown>>;

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

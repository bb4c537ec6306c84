/**
 * conform's useForm with the app's validation habits (docs/product/data.md §5 "Validation runs on blur"): the
 * route's schema validates on blur and again on input once a field showed an error, and the
 * server's last reply (conform's SubmissionResult) fills in what it found.
 *
 * The schemas are zod/mini (app/forms), the same objects the route actions parse with conform's
 * parseWithZod on the server. The browser loads a form's checks (its schema, zod, and
 * `parseSubmission` of app/forms/parse.ts) only when the user first reaches the form (a focus or a
 * press inside it), not with the page: a page that is only read never downloads them (about 6 KiB
 * gzip on Sign In; docs/architecture/README.md §2 "client chunks"). A field left before they arrive is
 * checked as soon as they do; a form submitted before they arrive goes to the server, whose action
 * checks it with the same schema.
 */
import { useEffect, useRef } from "react";
import { getInputProps, getTextareaProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { getPaths, parse, type Constraint, type Submission } from "@conform-to/dom";
import type { input, output } from "zod/v4/core";
import type { FormSchema } from "~/forms/parse";

/** Loads a form's schema: a dynamic import of its app/forms module, e.g. `() => import("~/forms/account").then((m) => m.loginSchema)`. */
export type SchemaLoader<Schema extends FormSchema> = () => Promise<Schema>;

/**
 * conform's useForm for one of the app's forms (the habits above).
 * @param loadSchema the form's schema, loaded when the user first reaches the form
 * @param lastResult the action's reply to the last post (conform's SubmissionResult), if any
 * @param options.id the form's id (React's own when not given); options.defaultValue, options.constraint as useForm's
 * @returns `[form, fields, state]`: conform's form and fields metadata, and the form's state
 *   (formState: the form element's props, its error line, each control's state by field name)
 */
export function useValidatedForm<Schema extends FormSchema>(
  loadSchema: SchemaLoader<Schema>,
  lastResult: SubmissionResult<string[]> | undefined,
  options: { id?: string; defaultValue?: Partial<input<Schema>>; constraint?: Record<string, Constraint> } = {},
) {
  type Checks = (formData: FormData) => Submission<input<Schema>, string[], output<Schema>>;
  const checks = useRef<Checks | undefined>(undefined);
  /** Fields left before the checks arrived, checked once they do. */
  const waiting = useRef(new Set<string>());
  const result = useForm<input<Schema> & Record<string, unknown>, output<Schema>>({
    id: options.id,
    lastResult,
    defaultValue: options.defaultValue as never,
    // The form's HTML constraints, derived from its schema on the server (app/server/form-constraints.server.ts).
    constraint: options.constraint,
    onValidate: ({ formData }) => (checks.current ? checks.current(formData) : unchecked(formData, waiting.current)) as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const form = useRef(result[0]);
  form.current = result[0];
  // Typed by the schema's own field names (conform's metadata types admit any string).
  const view = formState(result[0]) as FormState<keyof input<Schema> & string>;
  const formId = view.props.id;
  const load = useRef(loadSchema);

  useEffect(() => {
    const element = document.getElementById(formId);
    if (!element) return;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      Promise.all([load.current(), import("~/forms/parse")]).then(
        ([schema, { parseSubmission }]) => {
          checks.current = (formData) => parseSubmission(formData, schema);
          for (const name of waiting.current) form.current.validate({ name });
          waiting.current.clear();
        },
        // Not loaded (offline, a new deployment): the next focus tries again; the server checks meanwhile.
        () => {
          started = false;
        },
      );
    };
    if (element.contains(document.activeElement)) start();
    element.addEventListener("focusin", start);
    element.addEventListener("pointerdown", start);
    return () => {
      element.removeEventListener("focusin", start);
      element.removeEventListener("pointerdown", start);
    };
  }, [formId]);

  return [result[0], result[1], view] as const;
}

/**
 * The reading of a post before the checks arrived: a field's check (conform's validate intent) is
 * noted in `waiting` and shows nothing yet; a submission goes on to the server.
 */
function unchecked(formData: FormData, waiting: Set<string>): Submission<Record<string, unknown>, string[]> {
  return parse(formData, {
    resolve(payload, intent) {
      if (intent?.type === "validate") {
        if (intent.payload.name) waiting.add(intent.payload.name);
        return { error: {} };
      }
      return { value: payload };
    },
  });
}

/** A field as a form's state gives it (`FormState.field`): what its input and text area props read. */
export interface FieldState extends Constraint {
  id: string;
  name: string;
  formId: string;
  /** The id of the field's error line (Field's `errorId`). */
  errorId: string;
  errors: string[] | undefined;
  initialValue: unknown;
}

/**
 * conform's getInputProps on a field's state: `id`, `name`, `form`, `type`, `aria-invalid` and
 * `aria-describedby` (the error line while there are errors), the constraints and the default value.
 */
export function inputProps<Options extends Parameters<typeof getInputProps>[1]>(state: FieldState, options: Options) {
  return getInputProps(state as unknown as FieldMetadata<unknown>, options);
}

/** conform's getTextareaProps on a field's state (as inputProps, for a text area). */
export function textareaProps(state: FieldState) {
  return getTextareaProps(state as unknown as FieldMetadata<unknown>);
}

/** A form as formState read it: the form element's props, its error line, and its fields' states. */
export interface FormState<Name extends string = string> {
  /** For the form element: conform's getFormProps, described by its error line always. */
  props: { id: string; onSubmit: FormMetadata["onSubmit"]; noValidate: boolean; "aria-describedby": string };
  /** The id of the form's error line (FormMessage's `id`). */
  errorId: string;
  errors: string[] | undefined;
  /**
   * What a form control needs of the field `name`: its id, name, form, error line's id, errors and
   * initial value as conform's field metadata gives them (the ids spelled as conform spells them: the
   * form's id and the field's name joined by "-", then "-error"), and its HTML constraints.
   * @param constraint the field's entry of the `constraint` given to useValidatedForm, if the form has one
   *   (conform reads it from there: a field read without it has no HTML constraints)
   */
  field(name: Name, constraint?: Constraint): FieldState;
}

/**
 * What a form element, its error line and its controls need of conform's form metadata, each read
 * once: its id, submit handler, `noValidate`, every field's errors (`allErrors`: the form's own under
 * "") and the initial value of the whole form. conform makes a new metadata object and its proxy for
 * every property read, of the form or of a field, and `getInputProps` reads fifteen of a field: those
 * reads were among the largest allocations and costs of a page with a form (bench/alloc.results.md), so
 * a form's controls read theirs from these five, whatever the number of fields. The reads of the errors
 * and the initial value are the ones that subscribe the form's component to their changes in the
 * browser, as reading them field by field did. The form is always described by its error line (empty
 * when there is nothing to say), as each form of the app said with `aria-describedby` after getFormProps.
 * useValidatedForm gives it as its third element.
 * @param form the form of useValidatedForm
 */
export function formState<Schema extends Record<string, unknown>>(form: FormMetadata<Schema, string[]>): FormState<keyof Schema & string> {
  const id = form.id;
  const errorId = `${id}-error`;
  const errors = form.allErrors as Record<string, string[] | undefined>;
  const initialValue = form.initialValue as unknown;
  return {
    props: { id, onSubmit: form.onSubmit, noValidate: form.noValidate, "aria-describedby": errorId },
    errorId,
    errors: errors[""],
    field(name, constraint) {
      const fieldId = `${id}-${name}`;
      return { ...constraint, id: fieldId, name, formId: id, errorId: `${fieldId}-error`, errors: errors[name], initialValue: valueAt(initialValue, name) };
    },
  };
}

/**
 * The value at the field name `name` (conform's paths: `a.b`, `list[0]`) of a form's whole value, as
 * conform's field metadata reads it (its `getPathValue`: own properties only).
 */
function valueAt(value: unknown, name: string): unknown {
  let at = value;
  for (const segment of getPaths(name)) {
    if (at == null || !Object.prototype.hasOwnProperty.call(at, segment)) return undefined;
    at = (at as Record<string | number, unknown>)[segment];
  }
  return at;
}

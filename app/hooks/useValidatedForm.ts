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
import { parse, type Constraint, type Submission } from "@conform-to/dom";
import type { input, output } from "zod/v4/core";
import type { FormSchema } from "~/forms/parse";

/** Loads a form's schema: a dynamic import of its app/forms module, e.g. `() => import("~/forms/account").then((m) => m.loginSchema)`. */
export type SchemaLoader<Schema extends FormSchema> = () => Promise<Schema>;

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
  const formId = result[0].id;
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

  return result;
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

/**
 * What a form control needs of a conform field: its id, name, form, error line's id, errors and
 * initial value, and its HTML constraints. conform makes a new metadata object and its proxy for
 * every property read on a field, and `getInputProps` reads fifteen; with the Field component's two
 * more, those reads were among the largest allocations of a page with a form (bench/alloc.results.md).
 * So four are read, once each (name, form, errors, initial value: the last two are the reads that
 * subscribe the component to the field's changes in the browser, as conform's own helpers do), and
 * the two ids are spelled as conform spells them: the form's id and the field's name joined by "-",
 * then "-error" (tests/unit/field-state.test.ts compares them with conform's own).
 * @param field a field of useValidatedForm's `fields`
 * @param constraint the field's entry of the `constraint` given to useValidatedForm, if the form has one
 *   (conform reads it from there: a field read without it has no HTML constraints)
 */
export function fieldState(field: FieldMetadata<unknown, Record<string, unknown>, string[]>, constraint?: Constraint): FieldState {
  const name = field.name;
  const formId = field.formId;
  const id = `${formId}-${name}`;
  return { ...constraint, id, name, formId, errorId: `${id}-error`, errors: field.errors, initialValue: field.initialValue };
}

/** A field as fieldState read it: conform's field metadata, the properties its input and text area props read. */
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

/** A form as formState read it: the form element's props, and its error line's id and errors. */
export interface FormState {
  /** For the form element: conform's getFormProps, described by its error line always. */
  props: { id: string; onSubmit: FormMetadata["onSubmit"]; noValidate: boolean; "aria-describedby": string };
  /** The id of the form's error line (FormMessage's `id`). */
  errorId: string;
  errors: string[] | undefined;
}

/**
 * What a form element and its error line need of conform's form metadata, each read once (as
 * fieldState for a field: each read makes a metadata object): its id, submit handler, `noValidate`
 * and errors; the error line's id is the form's id then "-error", as conform spells it. The form is
 * always described by its error line (empty when there is nothing to say), as each form of the app
 * said with `aria-describedby` after getFormProps.
 * @param form the form of useValidatedForm
 */
export function formState<Schema extends Record<string, unknown>>(form: FormMetadata<Schema, string[]>): FormState {
  const id = form.id;
  const errorId = `${id}-error`;
  return { props: { id, onSubmit: form.onSubmit, noValidate: form.noValidate, "aria-describedby": errorId }, errorId, errors: form.errors };
}

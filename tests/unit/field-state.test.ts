/**
 * A form's state (formState, the third element of useValidatedForm: app/hooks/useValidatedForm.ts)
 * gives a form control, through `field` and inputProps or textareaProps, what conform's getInputProps
 * and getTextareaProps give it read on the field itself: the same id, name, form, aria attributes,
 * constraints and default value, for a field untouched, prefilled, refused by the server,
 * constrained, and nested; and gives a form element what getFormProps gives it, with conform's own
 * error line id and errors. Rendered as the server renders a page.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { getFormProps, getInputProps, getTextareaProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { formState, inputProps, textareaProps, useValidatedForm, type FormState } from "../../app/hooks/useValidatedForm";
import { loginSchema } from "../../app/forms/account";
import * as messages from "../../app/messages";

type Fields = Record<string, FieldMetadata<unknown>>;
type Form = FormMetadata<Record<string, unknown>, string[]>;

/** Renders a form of useValidatedForm and hands its fields, form and form state to `read` during the render. */
function withFields(
  options: { id?: string; lastResult?: SubmissionResult<string[]>; defaultValue?: Record<string, string>; constraint?: Record<string, { maxLength?: number; required?: boolean }> },
  read: (fields: Fields, form: Form, view: FormState) => void,
) {
  function Probe() {
    const [form, fields, view] = useValidatedForm(() => Promise.resolve(loginSchema(messages)), options.lastResult, {
      id: "id" in options ? options.id : "probe",
      defaultValue: options.defaultValue as never,
      constraint: options.constraint,
    });
    read(fields as unknown as Fields, form as unknown as Form, view as FormState);
    return null;
  }
  renderToString(createElement(Probe));
}

const types = [{ type: "email" }, { type: "password" }, { type: "text" }, { type: "checkbox" }] as const;

describe("a form state's fields and their props", () => {
  it("equal conform's for a field untouched and a field prefilled", () => {
    withFields({ defaultValue: { email: "ana@example.com" } }, (fields, _form, view) => {
      for (const name of ["email", "password"]) {
        for (const options of types) expect(inputProps(view.field(name), options)).toEqual(getInputProps(fields[name]!, options));
        expect(textareaProps(view.field(name))).toEqual(getTextareaProps(fields[name]!));
      }
      const email = view.field("email");
      expect(inputProps(email, { type: "email" })).toMatchObject({ id: "probe-email", name: "email", form: "probe", defaultValue: "ana@example.com" });
      expect(email.errorId).toBe(fields.email!.errorId);
      expect(email.errors).toBeUndefined();
    });
  });

  it("equal conform's for a field the server refused: invalid, described by its error line", () => {
    const lastResult: SubmissionResult<string[]> = {
      status: "error",
      initialValue: { email: "not-an-address", acceptTerms: "on" },
      error: { email: ["Enter a valid e-mail address."] },
    };
    withFields({ lastResult }, (fields, _form, view) => {
      for (const name of ["email", "password", "acceptTerms"]) {
        for (const options of types) expect(inputProps(view.field(name), options)).toEqual(getInputProps(fields[name]!, options));
        expect(textareaProps(view.field(name))).toEqual(getTextareaProps(fields[name]!));
      }
      const email = view.field("email");
      expect(email.errors).toEqual(["Enter a valid e-mail address."]);
      expect(inputProps(email, { type: "email" })).toMatchObject({ "aria-invalid": true, "aria-describedby": email.errorId, defaultValue: "not-an-address" });
      expect(inputProps(view.field("acceptTerms"), { type: "checkbox" })).toMatchObject({ value: "on", defaultChecked: true });
    });
  });

  it("equal conform's for a constrained field when given the field's constraint, and lack it when not", () => {
    const constraint = { email: { maxLength: 254, required: true } };
    withFields({ constraint }, (fields, _form, view) => {
      for (const options of types) expect(inputProps(view.field("email", constraint.email), options)).toEqual(getInputProps(fields.email!, options));
      expect(textareaProps(view.field("email", constraint.email))).toEqual(getTextareaProps(fields.email!));
      expect(inputProps(view.field("email", constraint.email), { type: "email" })).toMatchObject({ maxLength: 254, required: true });
      expect(inputProps(view.field("email"), { type: "email" })).not.toHaveProperty("maxLength");
    });
  });

  it("spell the ids as conform does when the form's id is React's own (no id given)", () => {
    withFields({ id: undefined }, (fields, form, view) => {
      const email = view.field("email");
      expect(email.id).toBe(fields.email!.id);
      expect(email.errorId).toBe(fields.email!.errorId);
      expect(email.formId).toBe(form.id);
      expect(view.errorId).toBe(form.errorId);
    });
  });

  it("read a nested field's initial value and errors as conform's field metadata does", () => {
    const lastResult: SubmissionResult<string[]> = {
      status: "error",
      initialValue: { venue: { name: "Café Lyon", days: ["mon", "tue"] }, note: "x" },
      error: { "venue.name": ["Too long."], "venue.days[1]": ["Not a day."] },
    };
    function Probe() {
      const [form, fields] = useForm<{ venue: { name: string; days: string[] }; note: string }>({ lastResult });
      const view = formState(form as unknown as Form);
      const venue = fields.venue.getFieldset();
      const days = venue.days.getFieldList();
      for (const field of [venue.name, days[0]!, days[1]!, fields.note, venue.days] as FieldMetadata<unknown>[]) {
        const state = view.field(field.name);
        expect(state.initialValue, field.name).toEqual(field.initialValue);
        expect(state.errors, field.name).toEqual(field.errors);
        expect(state.id, field.name).toBe(field.id);
      }
      // A name the value does not have, and one that names an inherited property: nothing, as conform.
      expect(view.field("venue.city").initialValue).toBeUndefined();
      const noteLength = (fields.note as unknown as FieldMetadata<{ length: number }>).getFieldset().length;
      expect(view.field("note.length").initialValue).toBe(noteLength.initialValue);
      expect(view.field("toString").initialValue).toBeUndefined();
      return null;
    }
    renderToString(createElement(Probe));
  });
});

describe("formState", () => {
  it("gives the form element getFormProps' props, described by its error line, for a form untouched", () => {
    withFields({}, (_fields, form, view) => {
      expect(view.props).toEqual({ ...getFormProps(form), "aria-describedby": form.errorId });
      expect(view.props).toMatchObject({ id: "probe", noValidate: true, "aria-describedby": "probe-error" });
      expect(view.errorId).toBe(form.errorId);
      expect(view.errors).toBeUndefined();
      expect(formState(form).props).toEqual(view.props);
    });
  });

  it("gives the form's errors from the server's reply, and getFormProps' props", () => {
    const lastResult: SubmissionResult<string[]> = { status: "error", initialValue: { email: "ana@example.com" }, error: { "": ["Incorrect email or password."] } };
    withFields({ lastResult }, (fields, form, view) => {
      expect(view.errors).toEqual(["Incorrect email or password."]);
      expect(view.errors).toEqual(form.errors);
      expect(view.props).toEqual({ ...getFormProps(form), "aria-describedby": form.errorId });
      // The form's own errors are no field's.
      expect(view.field("email").errors).toBeUndefined();
      expect(inputProps(view.field("email"), { type: "email" })).toEqual(getInputProps(fields.email!, { type: "email" }));
    });
  });
});

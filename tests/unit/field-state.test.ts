/**
 * fieldState, inputProps and textareaProps (app/hooks/useValidatedForm.ts) give a form control what
 * conform's getInputProps and getTextareaProps give it read on the field itself: the same id, name,
 * form, aria attributes, constraints and default value, for a field untouched, prefilled, refused by
 * the server, and constrained; and formState gives a form element what getFormProps gives it, with
 * conform's own error line id and errors. Rendered as the server renders a page.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { getFormProps, getInputProps, getTextareaProps, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { fieldState, formState, inputProps, textareaProps, useValidatedForm } from "../../app/hooks/useValidatedForm";
import { loginSchema } from "../../app/forms/account";
import * as messages from "../../app/messages";

type Fields = Record<string, Parameters<typeof fieldState>[0]>;
type Form = FormMetadata<Record<string, unknown>, string[]>;

/** Renders a form of useValidatedForm and hands its fields and form to `read` during the render. */
function withFields(
  options: { id?: string; lastResult?: SubmissionResult<string[]>; defaultValue?: Record<string, string>; constraint?: Record<string, { maxLength?: number; required?: boolean }> },
  read: (fields: Fields, form: Form) => void,
) {
  function Probe() {
    const [form, fields] = useValidatedForm(() => Promise.resolve(loginSchema(messages)), options.lastResult, {
      id: "id" in options ? options.id : "probe",
      defaultValue: options.defaultValue as never,
      constraint: options.constraint,
    });
    read(fields as unknown as Fields, form as unknown as Form);
    return null;
  }
  renderToString(createElement(Probe));
}

const types = [{ type: "email" }, { type: "password" }, { type: "text" }, { type: "checkbox" }] as const;

describe("fieldState and its props", () => {
  it("equal conform's for a field untouched and a field prefilled", () => {
    withFields({ defaultValue: { email: "ana@example.com" } }, (fields) => {
      for (const name of ["email", "password"]) {
        for (const options of types) expect(inputProps(fieldState(fields[name]!), options)).toEqual(getInputProps(fields[name]!, options));
        expect(textareaProps(fieldState(fields[name]!))).toEqual(getTextareaProps(fields[name]!));
      }
      const email = fieldState(fields.email!);
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
    withFields({ lastResult }, (fields) => {
      for (const name of ["email", "password", "acceptTerms"]) {
        for (const options of types) expect(inputProps(fieldState(fields[name]!), options)).toEqual(getInputProps(fields[name]!, options));
        expect(textareaProps(fieldState(fields[name]!))).toEqual(getTextareaProps(fields[name]!));
      }
      const email = fieldState(fields.email!);
      expect(email.errors).toEqual(["Enter a valid e-mail address."]);
      expect(inputProps(email, { type: "email" })).toMatchObject({ "aria-invalid": true, "aria-describedby": email.errorId, defaultValue: "not-an-address" });
      expect(inputProps(fieldState(fields.acceptTerms!), { type: "checkbox" })).toMatchObject({ value: "on", defaultChecked: true });
    });
  });

  it("equal conform's for a constrained field when given the field's constraint, and lack it when not", () => {
    const constraint = { email: { maxLength: 254, required: true } };
    withFields({ constraint }, (fields) => {
      for (const options of types) expect(inputProps(fieldState(fields.email!, constraint.email), options)).toEqual(getInputProps(fields.email!, options));
      expect(textareaProps(fieldState(fields.email!, constraint.email))).toEqual(getTextareaProps(fields.email!));
      expect(inputProps(fieldState(fields.email!, constraint.email), { type: "email" })).toMatchObject({ maxLength: 254, required: true });
      expect(inputProps(fieldState(fields.email!), { type: "email" })).not.toHaveProperty("maxLength");
    });
  });

  it("spell the ids as conform does when the form's id is React's own (no id given)", () => {
    withFields({ id: undefined }, (fields, form) => {
      const email = fieldState(fields.email!);
      expect(email.id).toBe(fields.email!.id);
      expect(email.errorId).toBe(fields.email!.errorId);
      expect(email.formId).toBe(form.id);
      expect(formState(form).errorId).toBe(form.errorId);
    });
  });
});

describe("formState", () => {
  it("gives the form element getFormProps' props, described by its error line, for a form untouched", () => {
    withFields({}, (_fields, form) => {
      const state = formState(form);
      expect(state.props).toEqual({ ...getFormProps(form), "aria-describedby": form.errorId });
      expect(state.props).toMatchObject({ id: "probe", noValidate: true, "aria-describedby": "probe-error" });
      expect(state.errorId).toBe(form.errorId);
      expect(state.errors).toBeUndefined();
    });
  });

  it("gives the form's errors from the server's reply, and getFormProps' props", () => {
    const lastResult: SubmissionResult<string[]> = { status: "error", initialValue: { email: "ana@example.com" }, error: { "": ["Incorrect email or password."] } };
    withFields({ lastResult }, (_fields, form) => {
      const state = formState(form);
      expect(state.errors).toEqual(["Incorrect email or password."]);
      expect(state.errors).toEqual(form.errors);
      expect(state.props).toEqual({ ...getFormProps(form), "aria-describedby": form.errorId });
    });
  });
});

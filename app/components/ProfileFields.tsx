/**
 * The four profile inputs of docs/product/screens.md §2 /yourinfo and /personalinfo: first name, last name,
 * date of birth (MM/DD/YYYY) and postal code, wired to a conform form; `text`, their labels in the
 * page's language (from the route's loader data, made by `profileFieldsText`).
 */
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "./Field";

type ProfileFieldSet = {
  firstName: FieldMetadata<string>;
  lastName: FieldMetadata<string>;
  dob: FieldMetadata<string>;
  postalCode: FieldMetadata<string>;
};

/** The inputs' labels and the date's format hint. */
export interface ProfileFieldsText {
  firstName: string;
  lastName: string;
  dob: string;
  postalCode: string;
  dateFormat: string;
}

export function ProfileFields({ fields, text, readOnly = false }: { fields: ProfileFieldSet; text: ProfileFieldsText; readOnly?: boolean }) {
  const common = { required: false, readOnly };
  return (
    <>
      <Field
        label={text.firstName}
        inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), ...common, autoComplete: "given-name" }}
        errorId={fields.firstName.errorId}
        errors={fields.firstName.errors}
      />
      <Field
        label={text.lastName}
        inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), ...common, autoComplete: "family-name" }}
        errorId={fields.lastName.errorId}
        errors={fields.lastName.errors}
      />
      <Field
        label={text.dob}
        inputProps={{ ...getInputProps(fields.dob, { type: "text" }), ...common, autoComplete: "bday", inputMode: "numeric", placeholder: text.dateFormat }}
        errorId={fields.dob.errorId}
        errors={fields.dob.errors}
        hint={text.dateFormat}
      />
      <Field
        label={text.postalCode}
        inputProps={{ ...getInputProps(fields.postalCode, { type: "text" }), ...common, autoComplete: "postal-code" }}
        errorId={fields.postalCode.errorId}
        errors={fields.postalCode.errors}
      />
    </>
  );
}

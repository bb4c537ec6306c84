/**
 * The four profile inputs of docs/product/screens.md §2 /yourinfo and /personalinfo: first name, last name,
 * date of birth (MM/DD/YYYY) and postal code, wired to a conform form.
 */
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "./Field";

type ProfileFieldSet = {
  firstName: FieldMetadata<string>;
  lastName: FieldMetadata<string>;
  dob: FieldMetadata<string>;
  postalCode: FieldMetadata<string>;
};

export function ProfileFields({ fields, readOnly = false }: { fields: ProfileFieldSet; readOnly?: boolean }) {
  const common = { required: false, readOnly };
  return (
    <>
      <Field
        label="First Name"
        inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), ...common, autoComplete: "given-name" }}
        errorId={fields.firstName.errorId}
        errors={fields.firstName.errors}
      />
      <Field
        label="Last Name"
        inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), ...common, autoComplete: "family-name" }}
        errorId={fields.lastName.errorId}
        errors={fields.lastName.errors}
      />
      <Field
        label="Date of Birth"
        inputProps={{ ...getInputProps(fields.dob, { type: "text" }), ...common, autoComplete: "bday", inputMode: "numeric", placeholder: "MM/DD/YYYY" }}
        errorId={fields.dob.errorId}
        errors={fields.dob.errors}
        hint="MM/DD/YYYY"
      />
      <Field
        label="Postal Code"
        inputProps={{ ...getInputProps(fields.postalCode, { type: "text" }), ...common, autoComplete: "postal-code" }}
        errorId={fields.postalCode.errorId}
        errors={fields.postalCode.errors}
      />
    </>
  );
}

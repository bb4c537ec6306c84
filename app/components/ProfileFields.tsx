/**
 * The four profile inputs of docs/product/screens.md §2 /yourinfo and /personalinfo: first name, last name,
 * date of birth (MM/DD/YYYY) and postal code, wired to a conform form; `text`, their labels in the
 * page's language (from the route's loader data, made by `profileFieldsText`).
 */
import { inputProps, type FormState } from "~/hooks/useValidatedForm";
import { Field } from "./Field";

/** The profile's field names, in every form that has them. */
type ProfileFieldName = "firstName" | "lastName" | "dob" | "postalCode";

/** The inputs' labels and the date's format hint. */
export interface ProfileFieldsText {
  firstName: string;
  lastName: string;
  dob: string;
  postalCode: string;
  dateFormat: string;
}

/** @param form the form's state (useValidatedForm's third element), a form with the four profile fields */
export function ProfileFields({ form, text, readOnly = false }: { form: Pick<FormState<ProfileFieldName>, "field">; text: ProfileFieldsText; readOnly?: boolean }) {
  const common = { required: false, readOnly };
  const firstName = form.field("firstName");
  const lastName = form.field("lastName");
  const dob = form.field("dob");
  const postalCode = form.field("postalCode");
  return (
    <>
      <Field
        label={text.firstName}
        inputProps={{ ...inputProps(firstName, { type: "text" }), ...common, autoComplete: "given-name" }}
        errorId={firstName.errorId}
        errors={firstName.errors}
      />
      <Field
        label={text.lastName}
        inputProps={{ ...inputProps(lastName, { type: "text" }), ...common, autoComplete: "family-name" }}
        errorId={lastName.errorId}
        errors={lastName.errors}
      />
      <Field
        label={text.dob}
        inputProps={{ ...inputProps(dob, { type: "text" }), ...common, autoComplete: "bday", inputMode: "numeric", placeholder: text.dateFormat }}
        errorId={dob.errorId}
        errors={dob.errors}
        hint={text.dateFormat}
      />
      <Field
        label={text.postalCode}
        inputProps={{ ...inputProps(postalCode, { type: "text" }), ...common, autoComplete: "postal-code" }}
        errorId={postalCode.errorId}
        errors={postalCode.errors}
      />
    </>
  );
}

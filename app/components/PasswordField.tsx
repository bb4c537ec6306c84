/**
 * A password input wired to a conform field, optionally with docs/product/data.md §5's rule as its hint
 * (for every form that sets a new password). The hint is the page's words (`passwordRuleHint` of the
 * request's catalogue, from the loader data), so it is in the page's language.
 */
import { inputProps, type FieldState } from "~/hooks/useValidatedForm";
import { Field } from "./Field";

/**
 * @param field the field's state (useValidatedForm's form state's `field`, with the field's constraint when its form has them)
 * @param rule the password rule's hint in the page's language (the catalogue's `passwordRuleHint`), or none
 */
export function PasswordField({
  label,
  field,
  autoComplete,
  rule,
  disabled,
}: {
  label: string;
  field: FieldState;
  autoComplete: "new-password" | "current-password";
  rule?: string;
  disabled?: boolean;
}) {
  return (
    <Field
      label={label}
      inputProps={{ ...inputProps(field, { type: "password" }), autoComplete, required: false, disabled }}
      errorId={field.errorId}
      errors={field.errors}
      hint={rule}
    />
  );
}

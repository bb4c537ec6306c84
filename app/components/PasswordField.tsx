/**
 * A password input wired to a conform field, optionally with docs/product/data.md §5's rule as its hint
 * (for every form that sets a new password).
 */
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import * as messages from "~/messages";
import { Field } from "./Field";

export function PasswordField({
  label,
  field,
  autoComplete,
  showRule = false,
  disabled,
}: {
  label: string;
  field: FieldMetadata<string>;
  autoComplete: "new-password" | "current-password";
  showRule?: boolean;
  disabled?: boolean;
}) {
  return (
    <Field
      label={label}
      inputProps={{ ...getInputProps(field, { type: "password" }), autoComplete, required: false, disabled }}
      errorId={field.errorId}
      errors={field.errors}
      hint={showRule ? messages.passwordRuleHint : undefined}
    />
  );
}

/**
 * A password input wired to a conform field, optionally with docs/product/data.md §5's rule as its hint
 * (for every form that sets a new password). The hint is the page's words (`passwordRuleHint` of the
 * request's catalogue, from the loader data), so it is in the page's language.
 */
import type { FieldMetadata } from "@conform-to/react";
import type { Constraint } from "@conform-to/dom";
import { fieldState, inputProps } from "~/hooks/useValidatedForm";
import { Field } from "./Field";

/**
 * @param rule the password rule's hint in the page's language (the catalogue's `passwordRuleHint`), or none
 * @param constraint the field's HTML constraints, when its form has them (useValidatedForm's `constraint`)
 */
export function PasswordField({
  label,
  field,
  autoComplete,
  rule,
  disabled,
  constraint,
}: {
  label: string;
  field: FieldMetadata<string>;
  autoComplete: "new-password" | "current-password";
  rule?: string;
  disabled?: boolean;
  constraint?: Constraint | undefined;
}) {
  const state = fieldState(field, constraint);
  return (
    <Field
      label={label}
      inputProps={{ ...inputProps(state, { type: "password" }), autoComplete, required: false, disabled }}
      errorId={state.errorId}
      errors={state.errors}
      hint={rule}
    />
  );
}

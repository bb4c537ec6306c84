/**
 * Characters no form field may carry (docs/security/input.md "Input"): the C0 control characters (NUL
 * among them) and DEL. Multi-line text (the dispute comment) keeps tab, CR and LF. The check runs
 * in every form schema, so the field itself says what is wrong, with JavaScript and without; the
 * reference services refuse the same characters at their edge.
 */

const singleLineControls = /[\u0000-\u001f\u007f]/;
const multiLineControls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** True when `value` holds a character no field may hold (`multiLine`: tab, CR and LF are allowed). */
export function hasControlCharacters(value: string, multiLine = false): boolean {
  return (multiLine ? multiLineControls : singleLineControls).test(value);
}

/** A zod refinement predicate for single-line fields: true when the value is clean. */
export const singleLine = (value: string): boolean => !hasControlCharacters(value);

/** A zod refinement predicate for multi-line fields: true when the value is clean. */
export const multiLine = (value: string): boolean => !hasControlCharacters(value, true);

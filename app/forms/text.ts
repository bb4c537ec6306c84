/**
 * Characters no form field may carry (docs/security/input.md "Input"; the rule, contracts/rules.ts
 * `hasControlCharacters`): every control character (C0, DEL and C1, NUL among them). Multi-line
 * text (the dispute comment) keeps tab, CR and LF. The check runs in every form schema, so the
 * field itself says what is wrong, with JavaScript and without; the reference services refuse the
 * same characters in the same fields.
 */
import { hasControlCharacters } from "../../contracts/rules.ts";

/** A zod refinement predicate for single-line fields: true when the value is clean. */
export const singleLine = (value: string): boolean => !hasControlCharacters(value);

/** A zod refinement predicate for multi-line fields: true when the value is clean. */
export const multiLine = (value: string): boolean => !hasControlCharacters(value, true);

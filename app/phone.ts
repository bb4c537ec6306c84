/**
 * US phone numbers as docs/product/data.md §5 keeps them: written (###) ###-####, stored as 10 digits. Apart
 * from the venue forms (app/forms/venue.ts) so that a page that only shows a phone ships no zod.
 */

/** The 10 digits of a US phone number written with any punctuation or spaces; null for any other count of digits, or letters. */
export function phoneDigits(value: string): string | null {
  if (/\p{L}/u.test(value)) return null;
  const digits = value.replace(/\D/g, "");
  return digits.length === 10 ? digits : null;
}

/** 10 digits as docs/product/data.md §5 writes a phone: (###) ###-####. */
export function formatPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

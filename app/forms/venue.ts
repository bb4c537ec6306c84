/**
 * The helper rules of docs/product/data.md §5 ("Other helper rules defined") for the venue and location forms
 * (docs/venues.md): a phone written (###) ###-#### and stored as 10 digits, a time HH:MM with hours 0 to 24 and
 * minutes 0 to 60 (read literally: 24:00 and 00:60 are times, 24:01 is not), and the age check 21; and
 * the zod/mini fields that carry them with the product's required-field messages. The fields and the
 * check-in schema are functions of their words (app/forms/words.ts), so their messages are in the
 * request's language.
 */
import * as z from "zod/mini";
import { isAtLeastMinimumAge, parseUsDate } from "./profile";
import { singleLine } from "./text";
import { perWords, type FormWords } from "./words";
import { formatPhone, phoneDigits } from "../phone";

export { formatPhone, phoneDigits };

/** docs/product/data.md §5: the age check of the venue side. */
export const venueMinimumAge = 21;

/** True for a time written HH:MM (two digits each), hours 0 to 24 and minutes 0 to 60, 24 only as 24:00. */
export function isTime(value: string): boolean {
  const m = /^(\d{2}):(\d{2})$/.exec(value);
  if (!m) return false;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  return hours <= 24 && minutes <= 60 && (hours < 24 || minutes === 0);
}

/** True when someone born on `dob` (MM/DD/YYYY) is 21 or older at `now`, by the age rule's date (contracts/rules.ts `isOldEnough`; 21 on the birthday itself). */
export function isAtLeast21(dob: string, now: Date = new Date()): boolean {
  return isAtLeastMinimumAge(dob, now, venueMinimumAge);
}

/** The words of the venue fields' own checks (each field's required message is its form's). */
export const venueFieldWordKeys = ["controlCharacters", "phoneRequired", "phoneInvalid", "timeInvalid", "under21"] as const;
/** The words the venue fields' checks are written with, in the request's language. */
export type VenueFieldWords = FormWords<typeof venueFieldWordKeys>;

/** A required single-line text field with `required` as its message, at most `max` characters. */
export function requiredField(words: Pick<VenueFieldWords, "controlCharacters">, required: string, max = 200) {
  return z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.maxLength(max, required), z.refine(singleLine, words.controlCharacters));
}

/** A required phone field: any punctuation in, 10 digits out (phoneDigits); `required` is `words.phoneRequired` unless given. */
export function phoneField(words: Pick<VenueFieldWords, "phoneRequired" | "phoneInvalid">, required: string = words.phoneRequired) {
  return z.pipe(
    z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.refine((value) => phoneDigits(value) !== null, words.phoneInvalid)),
    z.transform((value: string) => phoneDigits(value) as string),
  );
}

/** A required HH:MM time field. */
export function timeField(words: Pick<VenueFieldWords, "timeInvalid">, required: string) {
  return z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.refine(isTime, words.timeInvalid));
}

/** A required date of birth (MM/DD/YYYY) of someone 21 or older. */
export function dob21Field(words: Pick<VenueFieldWords, "under21">, required: string, format: string) {
  return z.string({ error: required }).check(
    z.trim(),
    z.minLength(1, required),
    z.refine((value) => parseUsDate(value) !== null, format),
    z.refine((value) => parseUsDate(value) === null || isAtLeast21(value), words.under21),
  );
}

/** The words of Venue Check-In's code check. */
export const checkinCodeWordKeys = ["checkinCodeInvalid"] as const;

/**
 * Venue Check-In's code box (docs/venues.md "Check-in"): the six characters a visitor shows, typed in
 * any case with spaces or dashes between them (at most 9 characters in all); out, the six in upper
 * case. The consumer API reads I, L and O as 1, 1 and 0.
 */
export const checkinCodeSchema = perWords((words: FormWords<typeof checkinCodeWordKeys>) =>
  z.object({
    code: z.pipe(
      z.string().check(
        z.maxLength(9, words.checkinCodeInvalid),
        z.refine((value) => /^[0-9A-Z]{6}$/.test(typedCheckinCode(value)), words.checkinCodeInvalid),
      ),
      z.transform(typedCheckinCode),
    ),
  }),
);

/** A code as typed: upper case, spaces and dashes dropped. */
function typedCheckinCode(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, "");
}

/**
 * Profile forms (docs/product/screens.md §2 /yourinfo and /personalinfo, §5 profile screens, §6 age 18):
 * first name, last name, date of birth as MM/DD/YYYY, postal code. One schema per screen,
 * differing only in the product's date message. Dates travel to the consumer API as YYYY-MM-DD.
 * Each schema is a function of its words (app/forms/words.ts), so its messages are in the request's language.
 */
import { differenceInYears, format, isValid, parse } from "date-fns";
import * as z from "zod/mini";
import { singleLine } from "./text";
import { perWords, type FormWords } from "./words";

/** docs/product/messages.md §9: date format MM/DD/YYYY. */
export const usDatePattern = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/(19|20)\d{2}$/;
/** docs/product/data.md §6, §9: minimum age for a profile. */
export const minimumAge = 18;
const postalCodePattern = /^[A-Za-z0-9][A-Za-z0-9 -]{1,10}[A-Za-z0-9]$/;

/** The calendar date of an MM/DD/YYYY string (local midnight), or null when it is not a real date. */
export function parseUsDate(value: string): Date | null {
  if (!usDatePattern.test(value)) return null;
  const date = parse(value, "MM/dd/yyyy", new Date(2000, 0, 1));
  return isValid(date) && format(date, "MM/dd/yyyy") === value ? date : null;
}

/**
 * True when someone born on `dob` (MM/DD/YYYY) is at least `years` old (default 18, docs/product/data.md §6) on
 * `now`'s calendar date: from the birthday itself, not the day after.
 */
export function isAtLeastMinimumAge(dob: string, now: Date = new Date(), years: number = minimumAge): boolean {
  const date = parseUsDate(dob);
  return date !== null && date <= now && differenceInYears(now, date) >= years;
}

/** MM/DD/YYYY → YYYY-MM-DD (the consumer API's "database date"). */
export function toIsoDate(usDate: string): string {
  const [month, day, year] = usDate.split("/");
  return `${year}-${month}-${day}`;
}

/** The words both profile forms' checks share. */
const profileWordKeys = ["firstNameRequired", "lastNameRequired", "dobRequired", "under18", "postalCodeRequired", "postalCodeInvalid", "nameTooLong", "controlCharacters"] as const;
type ProfileWords = FormWords<typeof profileWordKeys>;

function requiredText(words: ProfileWords, message: string, max: number, tooLong: string = words.nameTooLong) {
  return z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(max, tooLong), z.refine(singleLine, words.controlCharacters));
}

function profileSchema(words: ProfileWords, dobFormatMessage: string) {
  return z.object({
    firstName: requiredText(words, words.firstNameRequired, 100),
    lastName: requiredText(words, words.lastNameRequired, 100),
    dob: z
      .string({ error: words.dobRequired })
      .check(
        z.trim(),
        z.minLength(1, words.dobRequired),
        z.refine((value) => parseUsDate(value) !== null, dobFormatMessage),
        z.refine((value) => parseUsDate(value) === null || isAtLeastMinimumAge(value), words.under18),
      ),
    postalCode: requiredText(words, words.postalCodeRequired, 12, words.postalCodeInvalid).check(z.regex(postalCodePattern, words.postalCodeInvalid)),
  });
}

/** The words of /yourinfo's checks. */
export const yourInfoWordKeys = ["dobFormatFirstTime", ...profileWordKeys] as const;
/** docs/product/screens.md §2 /yourinfo (first-time profile): 'DOB must be in mm/dd/yyyy format'. */
export const yourInfoSchema = perWords((words: FormWords<typeof yourInfoWordKeys>) => profileSchema(words, words.dobFormatFirstTime));

/** The words of /personalinfo's checks. */
export const personalInfoWordKeys = ["dobFormat", ...profileWordKeys] as const;
/** docs/product/screens.md §2 /personalinfo: 'Date of Birth must be in mm/dd/yyyy format'. */
export const personalInfoSchema = perWords((words: FormWords<typeof personalInfoWordKeys>) => profileSchema(words, words.dobFormat));

/**
 * Profile forms (docs/product/screens.md §2 /yourinfo and /personalinfo, §5 profile screens, §6 age 18):
 * first name, last name, date of birth as MM/DD/YYYY, postal code. One schema per screen,
 * differing only in the product's date message. Dates travel to the consumer API as YYYY-MM-DD.
 * Each schema is a function of its words (app/forms/words.ts), so its messages are in the request's language.
 */
import * as z from "zod/mini";
import { isOldEnough, isRealDate, minimumAge, nameMaxLength, postalCodeMaxLength, postalCodePattern, type CalendarDate } from "../../contracts/rules.ts";
import { singleLine } from "./text";
import { perWords, type FormWords } from "./words";

/** docs/product/messages.md §9: date format MM/DD/YYYY. */
export const usDatePattern = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/(19|20)\d{2}$/;

/** The calendar date of an MM/DD/YYYY string, or null when it is not one or not a real date (30 February). */
export function parseUsDate(value: string): CalendarDate | null {
  if (!usDatePattern.test(value)) return null;
  const [month, day, year] = value.split("/").map(Number) as [number, number, number];
  const date = { year, month, day };
  return isRealDate(date) ? date : null;
}

/**
 * True when someone born on `dob` (MM/DD/YYYY) is at least `years` old (default 18, docs/product/data.md §6)
 * at the instant `now`, by the age rule of contracts/rules.ts (`isOldEnough`: the date in UTC−12,
 * the 18th birthday itself counts, docs/product/shared-rules.md "Age").
 */
export function isAtLeastMinimumAge(dob: string, now: Date = new Date(), years: number = minimumAge): boolean {
  const date = parseUsDate(dob);
  return date !== null && isOldEnough(date, now, years);
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

function profileSchema(words: ProfileWords, dobFormatMessage: string, now: () => Date) {
  return z.object({
    firstName: requiredText(words, words.firstNameRequired, nameMaxLength),
    lastName: requiredText(words, words.lastNameRequired, nameMaxLength),
    dob: z
      .string({ error: words.dobRequired })
      .check(
        z.trim(),
        z.minLength(1, words.dobRequired),
        z.refine((value) => parseUsDate(value) !== null, dobFormatMessage),
        z.refine((value) => parseUsDate(value) === null || isAtLeastMinimumAge(value, now()), words.under18),
      ),
    postalCode: requiredText(words, words.postalCodeRequired, postalCodeMaxLength, words.postalCodeInvalid).check(z.regex(postalCodePattern, words.postalCodeInvalid)),
  });
}

/** The words of /yourinfo's checks. */
export const yourInfoWordKeys = ["dobFormatFirstTime", ...profileWordKeys] as const;

/** The /yourinfo schema with the age rule on the clock `now` (tests pin it); `yourInfoSchema` runs on the real one. */
export function yourInfoSchemaOn(now: () => Date) {
  return perWords((words: FormWords<typeof yourInfoWordKeys>) => profileSchema(words, words.dobFormatFirstTime, now));
}

/** docs/product/screens.md §2 /yourinfo (first-time profile): 'DOB must be in mm/dd/yyyy format'. */
export const yourInfoSchema = yourInfoSchemaOn(() => new Date());

/** The words of /personalinfo's checks. */
export const personalInfoWordKeys = ["dobFormat", ...profileWordKeys] as const;

/** The /personalinfo schema with the age rule on the clock `now` (tests pin it); `personalInfoSchema` runs on the real one. */
export function personalInfoSchemaOn(now: () => Date) {
  return perWords((words: FormWords<typeof personalInfoWordKeys>) => profileSchema(words, words.dobFormat, now));
}

/** docs/product/screens.md §2 /personalinfo: 'Date of Birth must be in mm/dd/yyyy format'. */
export const personalInfoSchema = personalInfoSchemaOn(() => new Date());

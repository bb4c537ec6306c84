/**
 * Profile forms (docs/product/screens.md §2 /yourinfo and /personalinfo, §5 profile screens, §6 age 18):
 * first name, last name, date of birth as MM/DD/YYYY, postal code. One schema per screen,
 * differing only in the product's date message. Dates travel to the consumer API as YYYY-MM-DD.
 */
import { differenceInYears, format, isValid, parse } from "date-fns";
import * as z from "zod/mini";
import * as messages from "../messages";
import { singleLine } from "./text";

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


function requiredText(message: string, max: number, tooLong: string = messages.nameTooLong) {
  return z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(max, tooLong), z.refine(singleLine, messages.controlCharacters));
}

function profileSchema(dobFormatMessage: string) {
  return z.object({
    firstName: requiredText(messages.firstNameRequired, 100),
    lastName: requiredText(messages.lastNameRequired, 100),
    dob: z
      .string({ error: messages.dobRequired })
      .check(
        z.trim(),
        z.minLength(1, messages.dobRequired),
        z.refine((value) => parseUsDate(value) !== null, dobFormatMessage),
        z.refine((value) => parseUsDate(value) === null || isAtLeastMinimumAge(value), messages.under18),
      ),
    postalCode: requiredText(messages.postalCodeRequired, 12, messages.postalCodeInvalid).check(z.regex(postalCodePattern, messages.postalCodeInvalid)),
  });
}

/** docs/product/screens.md §2 /yourinfo (first-time profile): 'DOB must be in mm/dd/yyyy format'. */
export const yourInfoSchema = profileSchema(messages.dobFormatFirstTime);
/** docs/product/screens.md §2 /personalinfo: 'Date of Birth must be in mm/dd/yyyy format'. */
export const personalInfoSchema = profileSchema(messages.dobFormat);

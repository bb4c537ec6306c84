/**
 * The product's rules that the web app and the reference services both check, stated once
 * (docs/product/shared-rules.md): the password rule, the profile's text fields (names, the postal
 * code), the control characters no field may carry, the age rule, and the safe-window hours. The
 * app's form schemas (app/forms/) and the services' checks (services/identity/passwords.ts,
 * services/consumer/profiles.ts, services/consumer/labs/rules.ts) are built from these, so the two
 * sides accept and refuse the same values; each side adds only its own messages.
 *
 * Imports nothing (no zod): the browser bundle loads it with the forms, and Node's type stripping
 * runs it from source.
 */

// ---------------------------------------------------------------- control characters

const singleLineControls = /\p{Cc}/u;
/** A whole one-line value without a control character: `hasControlCharacters`'s rule as a pattern, for schemas that publish it (OpenAPI). */
export const noControlCharacters = /^[^\p{Cc}]*$/u;
const multiLineControls = /(?![\t\n\r])\p{Cc}/u;

/**
 * True when `value` holds a control character (Unicode general category Cc: C0, DEL and C1, NUL
 * among them), which no field may carry (docs/product/data.md §5 "Decided in code"). `multiLine`
 * (the dispute comment): tab, CR and LF are allowed.
 */
export function hasControlCharacters(value: string, multiLine = false): boolean {
  return (multiLine ? multiLineControls : singleLineControls).test(value);
}

// ---------------------------------------------------------------- password

/** docs/product/data.md §5 password rule: the shortest password, in UTF-16 code units. */
export const passwordMinLength = 8;
/** The longest password, in UTF-16 code units: a bound on argon2's input, not a product rule. */
export const passwordMaxLength = 128;
/** docs/product/data.md §5: the special characters, one of which a password must hold. */
export const passwordSpecials = "!@#$%^&*";

/**
 * True when `password` is shorter than the rule allows, counted in UTF-16 code units as the identity
 * authority counts (ASP.NET Identity's string.Length): "a!a0A😀A" is 8 long. zod's length checks
 * count code points (7 there), so forms check the length through this and passwordTooLong.
 */
export function passwordTooShort(password: string): boolean {
  return password.length < passwordMinLength;
}

/** True when `password` is longer than passwordMaxLength, counted as passwordTooShort counts. */
export function passwordTooLong(password: string): boolean {
  return password.length > passwordMaxLength;
}

/** The character classes of docs/product/data.md §5 (ASCII letters and digits, as ASP.NET Identity counts them). */
export type PasswordClass = "lower" | "upper" | "digit" | "special";

const passwordClassPatterns: Record<PasswordClass, RegExp> = { lower: /[a-z]/, upper: /[A-Z]/, digit: /[0-9]/, special: /[!@#$%^&*]/ };

/** The classes of docs/product/data.md §5 that `password` lacks, in the order special, digit, lower, upper; empty when it has all four. */
export function missingPasswordClasses(password: string): PasswordClass[] {
  return (["special", "digit", "lower", "upper"] as const).filter((name) => !passwordClassPatterns[name].test(password));
}

/** True when `password` has a lower and an upper case letter, a digit and one of `passwordSpecials`. */
export function hasPasswordCharacterClasses(password: string): boolean {
  return missingPasswordClasses(password).length === 0;
}

/**
 * The whole password rule (docs/product/data.md §5): 8 to 128 characters, the four character
 * classes, and no control character (tab and line breaks included: a password is one line).
 */
export function isValidPassword(password: string): boolean {
  return !passwordTooShort(password) && !passwordTooLong(password) && hasPasswordCharacterClasses(password) && !hasControlCharacters(password);
}

// ---------------------------------------------------------------- profile text

/** The longest first, middle or last name, in characters after trimming (docs/product/data.md §5 "Decided in code"). */
export const nameMaxLength = 100;
/** The longest postal code, in characters after trimming. */
export const postalCodeMaxLength = 12;
/** A postal code: 3 to 12 letters, digits, spaces or hyphens, starting and ending with a letter or digit (docs/product/data.md §5). */
export const postalCodePattern = /^[A-Za-z0-9][A-Za-z0-9 -]{1,10}[A-Za-z0-9]$/;

/** True when `trimmed` (a postal code with surrounding white space removed) is a postal code by `postalCodePattern`. */
export function isPostalCode(trimmed: string): boolean {
  return postalCodePattern.test(trimmed);
}

// ---------------------------------------------------------------- age

/** docs/product/data.md §6: the youngest age, in whole years, at which a person may create or change a profile. */
export const minimumAge = 18;

/**
 * The zone whose calendar date decides an age, as minutes east of UTC: UTC−12, the last zone
 * where a day begins ("anywhere on Earth"). A person is 18 once their 18th birthday has begun
 * everywhere, so no one is admitted while it is still the eve of that birthday where they live
 * (docs/product/shared-rules.md "Age").
 */
export const ageZoneOffsetMinutes = -12 * 60;

/** A date of the calendar, without time or zone; `month` 1 to 12, `day` 1 to 31. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Days in `month` (1 to 12) of `year` in the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when `date` exists in the Gregorian calendar (no 30 February, no month 13). */
export function isRealDate(date: CalendarDate): boolean {
  return Number.isInteger(date.year) && date.month >= 1 && date.month <= 12 && date.day >= 1 && date.day <= daysInMonth(date.year, date.month);
}

/** The calendar date at the instant `now` in the age rule's zone (`ageZoneOffsetMinutes`). */
export function ageRuleDate(now: Date): CalendarDate {
  const shifted = new Date(now.getTime() + ageZoneOffsetMinutes * 60_000);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** Negative when `a` is before `b`, 0 when equal, positive when after. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Whole years from `birth` to `today`: the age goes up on the birthday itself. Someone born on
 * 29 February has the birthday on 1 March in common years (28 February is still before it).
 */
export function ageOn(birth: CalendarDate, today: CalendarDate): number {
  const hadBirthday = today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  return today.year - birth.year - (hadBirthday ? 0 : 1);
}

/**
 * The age rule (docs/product/data.md §6): true when someone born on `birth` is at least `years`
 * old (default 18) at the instant `now`, counted on the date in the age rule's zone
 * (`ageRuleDate`); a birth date after that date is false. Pass `now` in: the rule never reads the clock.
 */
export function isOldEnough(birth: CalendarDate, now: Date, years: number = minimumAge): boolean {
  const today = ageRuleDate(now);
  return compareDates(birth, today) <= 0 && ageOn(birth, today) >= years;
}

// ---------------------------------------------------------------- safe windows

/** A test method family of the safe-window rules (docs/product/labs.md §10.7). */
export type WindowMethod = "NAAT" | "antigen";

/** The strong and weak windows' hours of each test method (the shape of `windowHours`). */
export type WindowHoursTable = Readonly<Record<WindowMethod, { readonly strongHours: number; readonly weakHours: number }>>;

/**
 * docs/product/labs.md §10.7: each method's strong and weak window, in hours counted from specimen
 * collection. The reference consumer API computes windows from it; the testing philosophy page
 * and the privacy page's pass section show it. Against a real upstream these are still the
 * product's rules, which that upstream honours (docs/product/shared-rules.md "Window hours").
 */
export const windowHours: WindowHoursTable = {
  // The EU DCC template accepts a NAAT for 72 h (our weak window); 48 h is the strictest national rule.
  NAAT: { strongHours: 48, weakHours: 72 },
  // The EU DCC template accepts a rapid antigen test for 48 h (weak); 24 h is the strictest national rule.
  antigen: { strongHours: 24, weakHours: 48 },
};

/** The longest window of any method, in hours: how long a pass can stay valid at most. */
export const longestWindowHours = Math.max(...Object.values(windowHours).flatMap((hours) => [hours.strongHours, hours.weakHours]));

// docs/product/data.md §5 "Other helper rules" (app/forms/venue.ts), read literally: phone (###) ###-####
// stored as 10 digits; time HH:MM with hours 0 to 24 and minutes 0 to 60; age check 21.
import { describe, expect, it } from "vitest";
import { dob21Field, formatPhone, isAtLeast21, isTime, phoneDigits, phoneField, requiredField, timeField } from "../../app/forms/venue";
import * as messages from "../../app/messages";
import * as z from "zod/mini";

describe("phone", () => {
  it("keeps the 10 digits of a number written with any punctuation", () => {
    for (const written of ["(206) 555-0123", "206-555-0123", "206.555.0123", "206 555 0123", "2065550123", " (206)555-0123 ", "206/555_0123"]) {
      expect(phoneDigits(written), written).toBe("2065550123");
    }
    expect(formatPhone("2065550123")).toBe("(206) 555-0123");
  });

  it("refuses 9 or 11 digits, and letters", () => {
    for (const written of ["206555012", "(206) 555-012", "12065550123", "+1 206 555 0123", "206-555-01234", "206-555-CALL", "", "phone"]) {
      expect(phoneDigits(written), written).toBeNull();
    }
  });

  it("as a form field: required, then 10 digits, stored as the digits", () => {
    const schema = z.object({ phone: phoneField(messages) });
    expect(schema.parse({ phone: "(206) 555-0123" })).toEqual({ phone: "2065550123" });
    expect(z.safeParse(schema, { phone: "  " }).error?.issues[0]?.message).toBe(messages.phoneRequired);
    expect(z.safeParse(schema, { phone: "555-0123" }).error?.issues[0]?.message).toBe(messages.phoneInvalid);
  });
});

describe("time HH:MM", () => {
  it("takes hours 0 to 24 and minutes 0 to 60, as the product writes them", () => {
    for (const valid of ["00:00", "07:05", "12:30", "23:59", "24:00", "00:60", "23:60"]) expect(isTime(valid), valid).toBe(true);
  });

  it("refuses 24:01, 00:61, 25:00 and anything not HH:MM", () => {
    for (const invalid of ["24:01", "24:60", "00:61", "25:00", "7:05", "07:5", "0705", "07-05", "07:05:00", "", " 07:05", "ab:cd"]) expect(isTime(invalid), invalid).toBe(false);
    expect(z.safeParse(timeField(messages, "Opening time is required"), "7:05").error?.issues[0]?.message).toBe(messages.timeInvalid);
    expect(z.safeParse(timeField(messages, "Opening time is required"), "").error?.issues[0]?.message).toBe("Opening time is required");
  });
});

describe("age check 21", () => {
  const now = new Date("2026-11-25T12:00:00Z"); // Nov 25, 2026, 00:00 in UTC−12, the age rule's zone (contracts/rules.ts)

  it("is 21 on the 21st birthday itself, and not the day before", () => {
    expect(isAtLeast21("11/25/2005", now)).toBe(true);
    expect(isAtLeast21("11/25/2005", new Date("2026-11-25T11:59:59Z"))).toBe(false);
    expect(isAtLeast21("11/26/2005", now)).toBe(false);
    expect(isAtLeast21("11/24/2005", now)).toBe(true);
    expect(isAtLeast21("02/29/2004", new Date("2025-03-01T11:00:00Z"))).toBe(false); // a leap-day birthday turns 21 on Mar 1 in 2025
    expect(isAtLeast21("02/29/2004", new Date("2025-03-01T12:00:00Z"))).toBe(true);
  });

  it("as a form field: the date format first, then the age", () => {
    const field = dob21Field(messages, messages.dobRequired, messages.dobFormat);
    expect(z.safeParse(field, "").error?.issues[0]?.message).toBe(messages.dobRequired);
    expect(z.safeParse(field, "2005-11-25").error?.issues[0]?.message).toBe(messages.dobFormat);
    expect(z.safeParse(field, "01/01/2020").error?.issues[0]?.message).toBe(messages.under21);
    expect(z.safeParse(field, "01/01/1990").success).toBe(true);
  });
});

describe("required fields", () => {
  it("say the product's message for each empty field", () => {
    for (const message of [messages.mobileNumberRequired, messages.businessNameRequired, messages.addressRequired, messages.cityRequired, messages.stateRequired, messages.locationNameRequired]) {
      expect(z.safeParse(requiredField(messages, message), "   ").error?.issues[0]?.message).toBe(message);
      expect(z.safeParse(requiredField(messages, message), "Ballard").success).toBe(true);
    }
  });
});

// docs/architecture/results-pipeline.md §5 step 8, matching (docs/product/labs.md §10.6): NFC, trimming,
// collapsed inner white space and case are ignored, nothing else is folded; middle names the
// profile does not hold are allowed after the first name; one property value per field.
import { describe, expect, it } from "vitest";
import { firstNameMatches, lastNameMatches, matchProfile } from "../../services/consumer/results/match.ts";
import { findingIn, resultWords } from "../../contracts/result-words";

const profile = { firstName: "José", lastName: "O'Brien-Smith", dob: "1990-03-04" };

describe("first name", () => {
  it("equals the given names, or begins them followed by a space", () => {
    expect(firstNameMatches("JOSÉ", "José")).toBe(true);
    expect(firstNameMatches("José María", "José")).toBe(true);
    expect(firstNameMatches("JOSÉ MARÍA LUIS", "josé maría")).toBe(true);
    expect(firstNameMatches("Mary Ann", "Mary Ann")).toBe(true);
    expect(firstNameMatches("Mary Ann", "Mary")).toBe(true);
    expect(firstNameMatches("Maryann", "Mary")).toBe(false);
    expect(firstNameMatches("Ann Mary", "Mary")).toBe(false);
    expect(firstNameMatches("Mary", "Mary Ann")).toBe(false);
  });

  it("ignores NFC form, surrounding and repeated white space and case; folds nothing else", () => {
    const decomposed = "Jose\u0301"; // e + combining acute
    expect(firstNameMatches(decomposed, "José")).toBe(true);
    expect(firstNameMatches("  ZOË\u00a0 ", "zoë")).toBe(true);
    expect(firstNameMatches("Mary   Ann", "mary ann")).toBe(true);
    expect(firstNameMatches("JOSE", "José")).toBe(false);
    expect(firstNameMatches("Zoe", "Zoë")).toBe(false);
    expect(firstNameMatches("", "José")).toBe(false);
    expect(firstNameMatches("José", "   ")).toBe(false);
  });
});

describe("last name", () => {
  it("is equal, apostrophes, hyphens and particles as written", () => {
    expect(lastNameMatches("O'BRIEN-SMITH", "O'Brien-Smith")).toBe(true);
    expect(lastNameMatches("van der Berg", "Van Der  Berg")).toBe(true);
    expect(lastNameMatches("ÅNGSTRÖM", "Ångström")).toBe(true);
    expect(lastNameMatches("GROSS", "Groß")).toBe(true);
    expect(lastNameMatches("O’Brien", "O'Brien")).toBe(false);
    expect(lastNameMatches("OBrien", "O'Brien")).toBe(false);
    expect(lastNameMatches("Smith Jones", "Smith-Jones")).toBe(false);
    expect(lastNameMatches("Berg", "van der Berg")).toBe(false);
    expect(lastNameMatches("Angstrom", "Ångström")).toBe(false);
  });
});

describe("property values", () => {
  it("all match: valid, finding null for each field, in the product rules' order", () => {
    expect(matchProfile({ givenNames: "JOSÉ MARÍA", lastName: "O'BRIEN-SMITH", dob: "1990-03-04" }, profile)).toEqual({
      valid: true,
      properties: [
        { name: "First Name", finding: null },
        { name: "Last Name", finding: null },
        { name: "Date of Birth", finding: null },
      ],
    });
  });

  it("says what the PDF says against what the profile says; dates as MM/DD/YYYY", () => {
    const m = matchProfile({ givenNames: "JOSE  MARIA", lastName: "O'BRIEN-SMITH", dob: "1990-04-03" }, profile);
    expect(m.valid).toBe(false);
    expect(m.properties).toEqual([
      { name: "First Name", finding: { kind: "difference", pdf: "JOSE MARIA", profile: "José" } },
      { name: "Last Name", finding: null },
      { name: "Date of Birth", finding: { kind: "difference", pdf: "04/03/1990", profile: "03/04/1990" } },
    ]);
    const other = matchProfile({ givenNames: "Grace", lastName: "Hopper", dob: "1906-12-09" }, profile);
    expect(other.properties.map((p) => p.finding && findingIn(resultWords.en, p.finding))).toEqual([
      "PDF: Grace; profile: José",
      "PDF: Hopper; profile: O'Brien-Smith",
      "PDF: 12/09/1906; profile: 03/04/1990",
    ]);
  });
});

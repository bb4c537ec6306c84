// What the consumer API answers as data about a result, worded in the reader's language
// (app/result-words.ts): every shape the reference consumer API writes (its own functions make the
// input here), in Spanish with no English left but data, in English exactly as the API wrote it,
// and a shape the app does not know shown as sent.
import { describe, expect, it } from "vitest";
import { catalogues } from "../../app/messages/catalogues";
import { checkedFieldInfo, checkedFieldName, outcomeWord, proofWordsOf } from "../../app/result-words";
import { PROPERTY_NAMES } from "../../services/consumer/results/match";
import { proofLabel } from "../../services/consumer/results/proof/check";
import { manualReviewFinding } from "../../services/consumer/results/reviews";
import { findingIn, readFinding, resultWords, signedCodeFields } from "../../contracts/result-words";
import type { Finding } from "../../contracts/result-words";
import fc from "fast-check";

/** The matchInfo the consumer API answers for a stored finding (services/consumer/results/store.ts propertyValueOf). */
const wire = (finding: Finding) => findingIn(resultWords.en, finding);
const manualReviewText = (at: Date) => wire(manualReviewFinding(at));

const es = catalogues.es;
const en = catalogues.en;

describe("a result's data in the reader's words", () => {
  it("words the outcomes, and leaves an unknown one and none as they are", () => {
    expect(["Negative", "Positive", "Inconclusive"].map((o) => outcomeWord(es.resultWords, o))).toEqual(["Negativo", "Positivo", "No concluyente"]);
    expect(["Negative", "Positive", "Inconclusive"].map((o) => outcomeWord(en.resultWords, o))).toEqual(["Negative", "Positive", "Inconclusive"]);
    expect(outcomeWord(es.resultWords, "Void")).toBe("Void");
    expect(outcomeWord(es.resultWords, "toString")).toBe("toString");
    expect(outcomeWord(es.resultWords, null)).toBe("");
  });

  it("words every proof label the consumer API writes; the scheme and the issuer stay as written", () => {
    expect(proofWordsOf(es, proofLabel("document", null))).toBe("revisión del documento");
    expect(proofWordsOf(es, proofLabel("link", null))).toBe("obtenido del laboratorio");
    expect(proofWordsOf(es, proofLabel("shc", "Harborview Labs"))).toBe("firmado (SMART Health Card, Harborview Labs)");
    expect(proofWordsOf(es, proofLabel("dcc", "DE"))).toBe("firmado (EU DCC, DE)");
    expect(proofWordsOf(es, proofLabel("shc", null))).toBe("firmado (SMART Health Card, emisor desconocido)");
    expect(proofWordsOf(es, proofLabel("dcc", null))).toBe("firmado (EU DCC, país desconocido)");
    for (const label of [proofLabel("document", null), proofLabel("link", null), proofLabel("shc", "Harborview Labs"), proofLabel("dcc", null)]) {
      expect(proofWordsOf(en, label)).toBe(label);
    }
    expect(proofWordsOf(es, "notarised by a friend")).toBe("notarised by a friend");
  });

  it("words every checked field's name and what differed, keeping the values and the UTC times", () => {
    expect([...PROPERTY_NAMES, "Signed QR Code", "Manual Review"].map((n) => checkedFieldName(es, n))).toEqual(["Nombre", "Apellido", "Fecha de nacimiento", "Código QR firmado", "Revisión manual"]);
    expect(checkedFieldInfo(es, "Last Name", "PDF: GÓMEZ; profile: Pérez")).toBe("PDF: GÓMEZ; perfil: Pérez");
    const at = new Date("2026-11-20T16:15:00Z");
    expect(checkedFieldInfo(es, "Manual Review", manualReviewText(at))).toBe("Aceptado en la revisión por un revisor el 2026-11-20 16:15 UTC");
    expect(checkedFieldInfo(es, "Manual Review", "Accepted on review by a reviewer")).toBe("Aceptado en la revisión por un revisor");
    expect(checkedFieldInfo(es, "Signed QR Code", "Result (QR: Positive; PDF: Negative), Name (QR: ANA RUIZ; PDF: ANA DIAZ); Result (QR: unknown code 99; PDF: Negative)")).toBe(
      "Resultado (en el QR: Positivo; en el PDF: Negativo), Nombre (en el QR: ANA RUIZ; en el PDF: ANA DIAZ), Resultado (en el QR: código desconocido 99; en el PDF: Negativo)",
    );
    for (const [name, info] of [
      ["Last Name", "PDF: GÓMEZ; profile: Pérez"],
      ["Manual Review", manualReviewText(at)],
      ["Signed QR Code", "Result (QR: Positive; PDF: Negative), Collected (QR: 2026-11-20 16:15 UTC; PDF: 2026-11-20 18:15 UTC)"],
    ] as const) {
      expect(checkedFieldName(en, name)).toBe(name);
      expect(checkedFieldInfo(en, name, info)).toBe(info);
    }
    expect(checkedFieldInfo(es, "Shoe Size", "too large")).toBe("too large");
    expect(checkedFieldName(es, "Shoe Size")).toBe("Shoe Size");
  });

  it("reads back every finding the consumer API words, whatever its values, and words it in Spanish with only the values left", () => {
    // Values as a lab prints them: letters (any script), digits, spaces, punctuation other than the grammar's own ; ( ).
    const value = fc.stringMatching(/^[\p{L}\p{N}][\p{L}\p{N} .,'\/:-]{0,30}$/u).filter((v) => !/, |\s$/.test(v));
    const instant = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:00Z"), noInvalidDate: true }).map((d) => new Date(Math.floor(d.getTime() / 60_000) * 60_000));
    // A result code no scheme defines is said only of the Result field.
    const item = fc.oneof(
      fc.record({ field: fc.constantFrom(...signedCodeFields), qr: value, pdf: value }),
      fc.record({ field: fc.constant("Result" as const), qr: fc.record({ unknownCode: fc.stringMatching(/^[0-9]{1,8}$/) }), pdf: value }),
    );
    const finding = fc.oneof(
      fc.record({ name: fc.constantFrom("First Name", "Last Name", "Date of Birth"), finding: fc.record({ kind: fc.constant("difference" as const), pdf: value, profile: value }) }),
      fc.record({ name: fc.constant("Manual Review"), finding: fc.oneof(instant.map(manualReviewFinding), fc.constant({ kind: "accepted" as const, at: null })) }),
      fc.record({ name: fc.constant("Signed QR Code"), finding: fc.array(item, { minLength: 1, maxLength: 5 }).map((items) => ({ kind: "disagreement" as const, items })) }),
    );
    fc.assert(
      fc.property(finding, ({ name, finding }) => {
        const text = wire(finding as Finding);
        expect(readFinding(name, text)).toEqual(finding);
        expect(checkedFieldInfo(en, name, text)).toBe(text);
        const spanish = checkedFieldInfo(es, name, text);
        for (const english of ["profile:", "Accepted on review", "(QR:", "unknown code"]) expect(spanish).not.toContain(english);
      }),
      { seed: 20261128, numRuns: 300 },
    );
  });
});

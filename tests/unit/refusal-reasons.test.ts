/**
 * The test-result refusals the app words itself (docs/product/calls.md §7.4 "What the upstream
 * writes"): each reason of `resultRefusalReasons` is one whose sentence the reason alone decides
 * (the reference consumer API's sentence takes no details of the case), the English is that
 * sentence word for word (the source each translation is made from), and the consumer client words
 * a refusal from its reason in Spanish only, never in English, never for another reason.
 */
import { describe, expect, it } from "vitest";
import { catalogues } from "../../app/messages/catalogues";
import { refusalInLanguage } from "../../app/server/upstream/consumer.server";
import { rejectionMessages } from "../../services/consumer/results/errors";
import { spanishRejectionMessages } from "../../services/consumer/results/errors-es";

describe("a test-result refusal worded from its reason", () => {
  it("covers only reasons whose reference sentence takes no details, and keeps that sentence as the English", () => {
    for (const [reason, english] of Object.entries(catalogues.en.resultRefusalReasons)) {
      const sentence = rejectionMessages[reason as keyof typeof rejectionMessages] as (() => string) | undefined;
      expect(sentence, reason).toBeTypeOf("function");
      expect(sentence!.length, reason).toBe(0);
      expect(sentence!(), reason).toBe(english);
    }
  });

  it("words each reason in Spanish as the reference consumer API does, word for word, and the API words every refusal in Spanish", () => {
    for (const [reason, spanish] of Object.entries(catalogues.es.resultRefusalReasons)) {
      const sentence = spanishRejectionMessages[reason as keyof typeof spanishRejectionMessages] as (() => string) | undefined;
      expect(sentence?.(), reason).toBe(spanish);
    }
    // Every sentence of the API has its Spanish, with the same parameters, and none is the English.
    for (const [key, english] of Object.entries(rejectionMessages)) {
      const spanish = spanishRejectionMessages[key as keyof typeof spanishRejectionMessages] as (...args: never[]) => string;
      expect(spanish.length, key).toBe(english.length);
      const args = Array.from({ length: english.length }, (_, i) => (i === 0 && (key === "unknown_lab" || key === "link_unknown_host") ? ["Harborview Labs", "Meridian Diagnostics"] : i === 0 ? 10 : "date of birth")) as never[];
      expect(spanish(...args), key).not.toBe((english as (...a: never[]) => string)(...args));
    }
  });

  it("is Spanish for a Spanish request, and the upstream's own sentence otherwise", () => {
    const spanish = refusalInLanguage("es", catalogues.es);
    expect(spanish({ success: false, reason: "duplicate", consumerMessage: "x" })).toBe("Ya subió este resultado de prueba; está en su lista de pruebas. No hace falta subirlo de nuevo.");
    // A reason whose sentence carries details, an unknown one, none at all: the consumerMessage is shown.
    expect(spanish({ success: false, reason: "future", consumerMessage: "x" })).toBeUndefined();
    expect(spanish({ success: false, reason: "toString", consumerMessage: "x" })).toBeUndefined();
    expect(spanish({ success: false, consumerMessage: "x" })).toBeUndefined();
    expect(spanish(null)).toBeUndefined();
    // English and no language: as sent.
    expect(refusalInLanguage("en", catalogues.en)({ reason: "duplicate" })).toBeUndefined();
    expect(refusalInLanguage(undefined, catalogues.en)({ reason: "duplicate" })).toBeUndefined();
  });
});

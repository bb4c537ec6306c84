// docs/architecture/results-pipeline.md §5 step 9 (docs/product/labs.md §10.7): hours from specimen collection in
// UTC by the rules table, exclusive end, future collection times refused beyond 5 minutes of
// skew; the consumer's window from the most recent valid result, positive results ending it.
import { describe, expect, it } from "vitest";
import { COLLECTION_CLOCK_SKEW_MS, WINDOW_RULES } from "../../services/consumer/labs/rules.ts";
import { UploadRejectedError } from "../../services/consumer/results/errors.ts";
import { readDateTime } from "../../services/consumer/results/extract.ts";
import { harborview } from "../../services/consumer/labs/harborview.ts";
import { checkCollectionTime, consumerWindow, isOpen, reportWindow, resultWindow, windowDescription, windowDescriptionIn } from "../../services/consumer/results/windows.ts";
import type { WindowCandidate } from "../../services/consumer/results/windows.ts";

const T = new Date("2026-11-20T16:15:00Z");
const h = (n: number) => new Date(T.getTime() + n * 3600_000);

describe("a result's window", () => {
  it("NAAT: strong 48 h, weak 72 h; antigen: strong 24 h, weak 48 h, from collection", () => {
    expect(WINDOW_RULES).toEqual({ NAAT: { strongHours: 48, weakHours: 72 }, antigen: { strongHours: 24, weakHours: 48 } });
    expect(resultWindow("NAAT", "Negative", T)).toEqual({ strongSafetyDate: h(48), weakSafetyDate: h(72) });
    expect(resultWindow("antigen", "Negative", T)).toEqual({ strongSafetyDate: h(24), weakSafetyDate: h(48) });
  });

  it("only a negative result opens one", () => {
    for (const outcome of ["Positive", "Inconclusive"] as const) {
      expect(resultWindow("NAAT", outcome, T)).toEqual({ strongSafetyDate: null, weakSafetyDate: null });
    }
  });

  it("is open while now < end: the end itself is outside", () => {
    const { strongSafetyDate, weakSafetyDate } = resultWindow("antigen", "Negative", T);
    expect(isOpen(strongSafetyDate, new Date(h(24).getTime() - 1))).toBe(true);
    expect(isOpen(strongSafetyDate, h(24))).toBe(false);
    expect(isOpen(weakSafetyDate, h(24))).toBe(true);
    expect(isOpen(weakSafetyDate, h(48))).toBe(false);
    expect(isOpen(null, T)).toBe(false);
  });

  it("counts real hours in UTC across a daylight-saving change (Harborview ET, 1 November 2026)", () => {
    // 31 October 2026 09:00 AM EDT; the clocks go back on 1 November, so 48 h later the wall clock reads 08:00 AM EST.
    const collected = readDateTime("10/31/2026 09:00 AM ET", "MM/DD/YYYY hh:mm AM ZONE", harborview.collected.zones) as Date;
    expect(collected.toISOString()).toBe("2026-10-31T13:00:00.000Z");
    const window = resultWindow("NAAT", "Negative", collected);
    expect(window.strongSafetyDate?.toISOString()).toBe("2026-11-02T13:00:00.000Z");
    expect(window.weakSafetyDate?.toISOString()).toBe("2026-11-03T13:00:00.000Z");
    // Spring forward (8 March 2026): 24 h after 03/07 10:00 PM EST is 03/08 11:00 PM EDT.
    const spring = readDateTime("03/07/2026 10:00 PM ET", "MM/DD/YYYY hh:mm AM ZONE", harborview.collected.zones) as Date;
    expect(resultWindow("antigen", "Negative", spring).strongSafetyDate?.toISOString()).toBe("2026-03-09T03:00:00.000Z");
  });

  it("refuses a collection time more than 5 minutes after the server's clock", () => {
    expect(COLLECTION_CLOCK_SKEW_MS).toBe(5 * 60_000);
    expect(() => checkCollectionTime(new Date(T.getTime() + 5 * 60_000), T)).not.toThrow();
    let err: unknown;
    try {
      reportWindow({ method: "NAAT", outcome: "Negative", collectedAt: new Date(T.getTime() + 5 * 60_000 + 1) }, T);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UploadRejectedError);
    expect((err as UploadRejectedError).reason).toBe("future");
    expect((err as UploadRejectedError).consumerMessage).toContain("2026-11-20 16:20 UTC");
  });

  it("describes the window by method and collection time in UTC", () => {
    expect(windowDescription("PCR (NAAT)", T)).toBe("PCR (NAAT), collected 2026-11-20 16:15 UTC");
  });
});

describe("the consumer's window", () => {
  const result = (collected: Date, outcome: WindowCandidate["outcome"], valid = true, method: "NAAT" | "antigen" = "NAAT"): WindowCandidate => ({
    valid,
    outcome,
    collectedAt: collected,
    ...resultWindow(method, outcome, collected),
    description: windowDescription(method === "NAAT" ? "PCR (NAAT)" : "Rapid antigen", collected),
    proof: method === "NAAT" ? "document checks" : "signed (EU DCC, DE)",
  });

  it("is that of the most recent valid result by collection time, not by upload order", () => {
    const older = result(h(-30), "Negative");
    const newer = result(h(-2), "Negative", true, "antigen");
    expect(consumerWindow([newer, older])).toEqual({
      strongSafetyDate: h(22),
      weakSafetyDate: h(46),
      safeWindowDescription: "Rapid antigen, collected 2026-11-20 14:15 UTC",
      // The proof of the result the window comes from.
      safeWindowProof: "signed (EU DCC, DE)",
    });
    expect(consumerWindow([older, newer])).toEqual(consumerWindow([newer, older]));
  });

  it("a later positive result ends it; an earlier one does not", () => {
    expect(consumerWindow([result(h(-30), "Negative"), result(h(-2), "Positive")])).toEqual({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null, safeWindowProof: null });
    expect(consumerWindow([result(h(-30), "Positive"), result(h(-2), "Negative")]).strongSafetyDate).toEqual(h(46));
    // Collected at the same time: the positive one wins.
    expect(consumerWindow([result(h(-2), "Negative"), result(h(-2), "Positive")]).strongSafetyDate).toBeNull();
  });

  it("ignores invalid results and results that open none (inconclusive)", () => {
    expect(consumerWindow([result(h(-30), "Negative"), result(h(-2), "Negative", false)]).strongSafetyDate).toEqual(h(18));
    expect(consumerWindow([result(h(-30), "Negative"), result(h(-2), "Inconclusive")]).strongSafetyDate).toEqual(h(18));
    expect(consumerWindow([result(h(-2), "Positive", false)]).strongSafetyDate).toBeNull();
    expect(consumerWindow([])).toEqual({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null, safeWindowProof: null });
  });

  it("keeps an expired window's dates (they are in the past; readers compare with their clock)", () => {
    const expired = consumerWindow([result(h(-100), "Negative")]);
    expect(expired.weakSafetyDate).toEqual(h(-28));
    expect(isOpen(expired.weakSafetyDate, T)).toBe(false);
  });
});

describe("a window's description in the reader's language", () => {
  const stored = windowDescription("PCR (NAAT)", new Date("2026-11-20T16:15:00Z"));

  it("Spanish says when the sample was taken, keeping the lab's method term and the UTC instant the app localizes", () => {
    expect(stored).toBe("PCR (NAAT), collected 2026-11-20 16:15 UTC");
    expect(windowDescriptionIn(stored, "es")).toBe("PCR (NAAT), muestra tomada el 2026-11-20 16:15 UTC");
  });

  it("English, null and a text of another shape are unchanged", () => {
    expect(windowDescriptionIn(stored, "en")).toBe(stored);
    expect(windowDescriptionIn(null, "es")).toBeNull();
    expect(windowDescriptionIn("Rapid antigen, read by a clinician", "es")).toBe("Rapid antigen, read by a clinician");
  });
});

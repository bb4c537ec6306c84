// The extension marks (contracts/extension.ts): rulesPart derives the product rules' part of an answer schema,
// withoutExtensions deletes marked fields from a value, markedFields lists them. The attack each
// test stops: an extension field that survives plain mode because it is nested (in an
// array, a nullable, a union) where a shallow strip would not look.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { consumerCalls, testResultSchema } from "../../contracts/consumer.ts";
import { extension, extensionOf, extensionValues, markedFields, rulesPart, withoutExtensions } from "../../contracts/extension.ts";

const inner = z.object({ keep: z.string(), drop: extension(z.number(), "pages") });
const screens = extensionValues(z.enum(["A", "B", "Extra"]), { Extra: "reviews" });
const schema = z.object({
  id: z.string(),
  top: extension(z.string().optional(), "ids"),
  list: z.array(inner).max(3),
  maybe: inner.nullable(),
  either: z.union([inner, z.object({ other: z.string(), drop: extension(z.string(), "proof") })]),
  screens: z.array(screens),
});
const full = {
  id: "x",
  top: "t",
  list: [{ keep: "a", drop: 1 }, { keep: "b", drop: 2 }],
  maybe: { keep: "c", drop: 3 },
  either: { other: "o", drop: "d" },
  screens: ["A", "Extra", "B"],
};
const spec = { id: "x", list: [{ keep: "a" }, { keep: "b" }], maybe: { keep: "c" }, either: { other: "o" }, screens: ["A", "B"] };

describe("rulesPart", () => {
  it("strips marked fields at every depth: arrays, nullables, union options, and marked enum values from lists", () => {
    expect(rulesPart(schema).parse(full)).toEqual(spec);
  });

  it("keeps the schema's own checks (an array's maximum) and refuses what is not the product rules' (an unknown enum value)", () => {
    expect(rulesPart(schema).safeParse({ ...full, list: [...full.list, ...full.list] }).success).toBe(false);
    expect(rulesPart(schema).safeParse({ ...full, screens: ["A", "Unknown"] }).success).toBe(false);
    expect((rulesPart(schema).parse({ ...full, maybe: null }) as { maybe: unknown }).maybe).toBeNull();
  });

  it("answers the schema itself when nothing in it is marked, and leaves the original schema whole", () => {
    const plain = z.object({ a: z.string() });
    expect(rulesPart(plain)).toBe(plain);
    expect(schema.parse(full)).toEqual(full);
  });

  it("strips a test result list to the product rules' fields", () => {
    const result = {
      sF_TestResultId: "r",
      valid: 1,
      disputeStatus: 0,
      diseaseName: "COVID-19",
      testDate: "2026-01-01T00:00:00Z",
      testingCompanyName: "Harborview Labs",
      publicName: "Harborview",
      testName: "PCR",
      result: "Negative",
      strongSafetyDate: null,
      weakSafetyDate: null,
      disputeComment: null,
      disputeResponseComment: null,
      pageCount: 2,
      fetchedFrom: null,
      proof: { kind: "document", label: "document checks", unverifiedSignature: null },
    } satisfies z.input<typeof testResultSchema>;
    const [stripped] = rulesPart(consumerCalls.getCurrentUserTestResults.answer).parse([result]) as Record<string, unknown>[];
    for (const field of ["result", "pageCount", "fetchedFrom", "proof"]) expect(stripped).not.toHaveProperty(field);
    expect(stripped).toMatchObject({ sF_TestResultId: "r", testName: "PCR" });
  });
});

describe("withoutExtensions", () => {
  it("deletes the same fields and values as rulesPart, and keeps keys the schema does not name", () => {
    expect(withoutExtensions(schema, { ...full, unknown: 1 })).toEqual({ ...spec, unknown: 1 });
    expect(full.list[0]).toEqual({ keep: "a", drop: 1 });
  });
});

describe("markedFields", () => {
  it("lists every marked field and value with its path and group", () => {
    expect(markedFields(schema)).toEqual([
      { kind: "field", name: "top", path: "top", group: "ids" },
      { kind: "field", name: "drop", path: "list[].drop", group: "pages" },
      { kind: "field", name: "drop", path: "maybe.drop", group: "pages" },
      { kind: "field", name: "drop", path: "either.drop", group: "pages" },
      { kind: "value", name: "Extra", path: "screens[]", group: "reviews" },
    ]);
    expect(extensionOf(schema.shape.top)).toBe("ids");
    expect(extensionOf(schema.shape.id)).toBeUndefined();
  });
});

describe("extensionValues on a schema that lets any name through", () => {
  it("drops the marked values from a list of plain strings too", () => {
    const names = z.object({ enabledScreens: z.array(extensionValues(z.string(), { Extra: "reviews" })) });
    expect(rulesPart(names).parse({ enabledScreens: ["A", "Extra", "unknown"] })).toEqual({ enabledScreens: ["A", "unknown"] });
    expect(withoutExtensions(names, { enabledScreens: ["Extra", "B"] })).toEqual({ enabledScreens: ["B"] });
  });
});

// Meridian Diagnostics (docs/product/labs.md §10.3): a two-column table (label left, value right on the
// same baseline), names in mixed case, day-first dates, sample time with its UTC offset.
import type { LabFormat } from "./types.ts";

export const meridian: LabFormat = {
  id: "meridian",
  testingCompanyName: "Meridian Health Diagnostics Ltd",
  publicName: "Meridian Diagnostics",
  recognisedBy: ["Meridian Health Diagnostics", "UKAS 22871"],
  producerPrefixes: ["JasperReports Library"],
  name: { kind: "separate", givenLabel: "Forename(s)", lastLabel: "Surname" },
  dob: { label: "Date of birth", format: "DD/MM/YYYY" },
  collected: { label: "Sample taken", format: "YYYY-MM-DD HH:MM (+HH:MM)" },
  test: {
    label: "Test type",
    kinds: {
      PCR: { method: "NAAT", description: "PCR (NAAT)" },
      "Lateral flow antigen": { method: "antigen", description: "Rapid antigen (lateral flow)" },
    },
  },
  result: { label: "Result", values: { Negative: "Negative", Positive: "Positive", Void: "Inconclusive" } },
  links: { hosts: ["results.meridian-diagnostics.example"], serves: "page" },
};

// Cascade Rapid Testing (docs/product/labs.md §10.4): `Label:` then the value further right on the same
// line, names in mixed case (the first name may carry a middle name), dates with English month
// names, collection time in ISO 8601 with its offset.
import type { LabFormat } from "./types.ts";

export const cascade: LabFormat = {
  id: "cascade",
  testingCompanyName: "Cascade Urgent Care Partners, P.C.",
  publicName: "Cascade Rapid Testing",
  recognisedBy: ["Cascade Rapid Testing", "CLIA 50D2235561"],
  producerPrefixes: ["Qt"],
  creatorPrefixes: ["wkhtmltopdf"],
  name: { kind: "separate", givenLabel: "First Name:", lastLabel: "Last Name:" },
  dob: { label: "Date of Birth:", format: "Month D, YYYY" },
  collected: { label: "Specimen Collected:", format: "ISO 8601" },
  test: {
    label: "Test Performed:",
    kinds: {
      "Abbott BinaxNOW COVID-19 Ag Card": { method: "antigen", description: "Rapid antigen" },
      "Cepheid Xpert Xpress SARS-CoV-2": { method: "NAAT", description: "PCR (NAAT)" },
      // A rapid test, but molecular: NAAT rules apply.
      "Abbott ID NOW COVID-19": { method: "NAAT", description: "Rapid molecular (NAAT)" },
    },
  },
  result: { label: "Result:", values: { Negative: "Negative", Positive: "Positive", Invalid: "Inconclusive" } },
  links: { hosts: ["portal.cascade-rapid.example", "results.cascade-rapid.example"], serves: "pdf" },
};

// Harborview Labs (docs/product/labs.md §10.2): `Label: value` on one line, names in upper case as
// `LAST, GIVEN NAMES`, US dates, collection time in a US zone with daylight saving.
import type { LabFormat } from "./types.ts";

export const harborview: LabFormat = {
  id: "harborview",
  testingCompanyName: "Harborview Clinical Laboratories, LLC",
  publicName: "Harborview Labs",
  recognisedBy: ["Harborview Clinical Laboratories", "CLIA #05D2101144"],
  producerPrefixes: ["iText"],
  creatorPrefixes: ["Harborview LIS"],
  name: { kind: "last-comma-given", label: "Patient Name:" },
  dob: { label: "DOB:", format: "MM/DD/YYYY" },
  collected: {
    label: "Collected:",
    format: "MM/DD/YYYY hh:mm AM ZONE",
    zones: { ET: "America/New_York", CT: "America/Chicago", MT: "America/Denver", PT: "America/Los_Angeles" },
  },
  test: {
    label: "Test:",
    kinds: {
      "SARS-CoV-2 RNA, Qualitative NAAT": { method: "NAAT", description: "PCR (NAAT)" },
      "SARS-CoV-2 Antigen, Rapid Immunoassay": { method: "antigen", description: "Rapid antigen" },
    },
  },
  result: { label: "Result:", values: { "NOT DETECTED": "Negative", DETECTED: "Positive", INCONCLUSIVE: "Inconclusive" } },
  links: { hosts: ["results.harborview-labs.example"], serves: "pdf" },
};

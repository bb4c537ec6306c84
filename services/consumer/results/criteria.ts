// The criteria of POST /testresult/addtestresultlink/ (docs/product/labs.md §10.8): per field, the text that
// labels it on the lab's document. They are checked against the lab's own layout (labs/*.ts), never
// trusted: a caller who could point the date of birth at "Reported", or the name at an ordering
// physician's, would choose what the result says. A link without criteria is read by the lab's labels.
import type { CriterionProperty } from "../../../contracts/consumer.ts";
import type { LabFormat } from "../labs/types.ts";
import { UploadRejectedError } from "./errors.ts";
import { FIELD_WORDS } from "./extract.ts";

/** One criterion: the field, and the text printed before its value. */
export interface Criterion {
  property: CriterionProperty;
  label: string;
}

const WORDS: Record<CriterionProperty, string> = {
  name: FIELD_WORDS.name,
  givenNames: "given names",
  lastName: "last name",
  dateOfBirth: FIELD_WORDS.dob,
  collectionTime: FIELD_WORDS.collected,
  testType: FIELD_WORDS.test,
  result: FIELD_WORDS.result,
};

/** The criteria that read `lab`'s documents: one per field it prints, with its label. */
export function labCriteria(lab: LabFormat): Criterion[] {
  const name: Criterion[] =
    lab.name.kind === "last-comma-given"
      ? [{ property: "name", label: lab.name.label }]
      : [
          { property: "givenNames", label: lab.name.givenLabel },
          { property: "lastName", label: lab.name.lastLabel },
        ];
  return [
    ...name,
    { property: "dateOfBirth", label: lab.dob.label },
    { property: "collectionTime", label: lab.collected.label },
    { property: "testType", label: lab.test.label },
    { property: "result", label: lab.result.label },
  ];
}

/** A label as compared: no white space, lower case, without a trailing colon. */
function squeezeLabel(label: string): string {
  return label.normalize("NFC").replace(/\s+/gu, "").toLowerCase().replace(/:$/, "");
}

/**
 * Checks that `criteria` name every field `lab` prints, once each, by the label the lab prints it
 * after (white space, case and a trailing colon aside).
 * @throws UploadRejectedError "criteria" naming the first field that is missing, repeated, not
 *   printed by this lab, or labelled otherwise.
 */
export function checkCriteria(criteria: readonly Criterion[], lab: LabFormat): void {
  const expected = labCriteria(lab);
  for (const given of criteria) {
    const wanted = expected.find((c) => c.property === given.property);
    const repeated = criteria.filter((c) => c.property === given.property).length > 1;
    if (!wanted || repeated) throw new UploadRejectedError("criteria", (w) => w.criteria_extra(lab.publicName, WORDS[given.property]));
  }
  for (const wanted of expected) {
    const given = criteria.find((c) => c.property === wanted.property);
    if (!given || squeezeLabel(given.label) !== squeezeLabel(wanted.label)) {
      throw new UploadRejectedError("criteria", (w) => w.criteria(lab.publicName, WORDS[wanted.property], wanted.label));
    }
  }
}

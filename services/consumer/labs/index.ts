// Every testing company the consumer API accepts (docs/product/labs.md §10). A new lab is a new data
// file added to LABS; nothing else changes.
import { cascade } from "./cascade.ts";
import { harborview } from "./harborview.ts";
import { meridian } from "./meridian.ts";
import type { LabFormat } from "./types.ts";

export type { LabFormat, Method, Outcome } from "./types.ts";

/** The accepted labs, in the order their names are listed to users. */
export const LABS: readonly LabFormat[] = [harborview, meridian, cascade];

/** A lab by its stored id, or undefined for an id no longer listed. */
export function labById(id: string): LabFormat | undefined {
  return LABS.find((lab) => lab.id === id);
}

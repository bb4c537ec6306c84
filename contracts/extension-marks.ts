/**
 * Every extension of the three upstream contracts, as one list (contracts/extension.ts explains
 * the marks): the calls marked `extension`, and the fields and enum values marked in the product rules' calls.
 * docs/product/calls.md §7 "Extensions" writes the same list as a table (tests/unit/extension-marks.test.ts
 * holds them together); the reference services' plain mode and its tests read it.
 *
 * Imported by Node's type stripping too (server.ts): explicit `.ts` extensions only.
 */
import type { z } from "zod";
import { businessCalls } from "./business.ts";
import type { CallContract, CallContracts } from "./call.ts";
import { consumerCalls } from "./consumer.ts";
import type { ExtensionGroup } from "./extension.ts";
import { markedFields } from "./extension.ts";
import { identityCalls } from "./identity.ts";

/** The three upstreams' calls, by upstream. */
export const upstreamCalls = { identity: identityCalls, consumer: consumerCalls, business: businessCalls } as const satisfies Record<string, CallContracts>;
export type UpstreamName = keyof typeof upstreamCalls;

/** Where in a call a marked field is: its answer, a request part, or the error answer of a status. */
export type MarkPlace = "answer" | "query" | "form" | "json" | "multipart" | `error ${number}`;

/** One extension: a whole call, or a field (or enum value) of a call of the product rules. */
export type ExtensionMark =
  | {
      kind: "call";
      upstream: UpstreamName;
      /** The call's name in its contract, e.g. `exportData`. */
      call: string;
      method: CallContract["method"];
      path: string;
      group: ExtensionGroup;
      /** Set when the call still answers in plain mode: why. */
      keptWhenOff?: string;
    }
  | {
      kind: "field" | "value";
      upstream: UpstreamName;
      call: string;
      method: CallContract["method"];
      path: string;
      /** The field's key, or the enum value. */
      name: string;
      place: MarkPlace;
      /** Where in that part, e.g. `[].result`. */
      at: string;
      group: ExtensionGroup;
    };

/** The schemas of one call, by place. */
export function callParts(call: CallContract): [MarkPlace, z.ZodType][] {
  const parts: [MarkPlace, z.ZodType][] = [];
  for (const place of ["query", "form", "json", "multipart"] as const) {
    const schema = call[place];
    if (schema) parts.push([place, schema]);
  }
  parts.push(["answer", call.answer]);
  for (const [status, error] of Object.entries(call.errorAnswers ?? {})) parts.push([`error ${Number(status)}`, error.schema]);
  return parts;
}

/**
 * Every extension of every upstream: one `call` mark per extension call (its fields are not
 * listed), then one `field` or `value` mark per place a marked field or value occurs in a call
 * of the product rules (so a field shared by several calls is listed once per call and place).
 */
export function extensionMarks(): ExtensionMark[] {
  const marks: ExtensionMark[] = [];
  for (const [upstream, calls] of Object.entries(upstreamCalls) as [UpstreamName, CallContracts][]) {
    for (const [name, call] of Object.entries(calls)) {
      const where = { upstream, call: name, method: call.method, path: call.path };
      if (call.extension) {
        marks.push({ kind: "call", ...where, group: call.extension, ...(call.keptWhenOff ? { keptWhenOff: call.keptWhenOff } : {}) });
        continue;
      }
      for (const [place, schema] of callParts(call)) {
        for (const field of markedFields(schema)) marks.push({ kind: field.kind, ...where, name: field.name, place, at: field.path, group: field.group });
      }
    }
  }
  return marks;
}

/**
 * HTML constraints for a form, read from the zod schema its action validates with, so the page and
 * the server never disagree on a number (docs/architecture/conventions.md §9.2). Computed on the server
 * and handed to the page as loader data: the browser gets the numbers, not zod.
 */
import type { Constraint } from "@conform-to/dom";
import { toJSONSchema, type $ZodType } from "zod/v4/core";

/**
 * Each top-level field's `maxLength` (characters) from `schema`'s JSON Schema (its input side),
 * in conform's constraint shape for useForm's `constraint` option; fields without a length bound
 * are left out. `required` and `minLength` are deliberately not carried: a browser without
 * JavaScript would stop the post with its own wording, where the server answers with
 * docs/product/messages.md §8's messages.
 * @throws when `schema` is not an object schema
 */
export function htmlConstraints(schema: $ZodType): Record<string, Constraint> {
  let constraints = computed.get(schema);
  if (!constraints) computed.set(schema, (constraints = fromJsonSchema(schema)));
  return constraints;
}

/** Each schema's constraints, computed once: a schema is a module-level constant. */
const computed = new WeakMap<$ZodType, Record<string, Constraint>>();

function fromJsonSchema(schema: $ZodType): Record<string, Constraint> {
  const json = toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { type?: string; properties?: Record<string, { maxLength?: number }> };
  if (json.type !== "object" || !json.properties) throw new Error("htmlConstraints: the schema of a form is an object");
  const constraints: Record<string, Constraint> = {};
  for (const [name, property] of Object.entries(json.properties)) {
    if (typeof property.maxLength === "number") constraints[name] = { maxLength: property.maxLength };
  }
  return constraints;
}

/**
 * The marks that tell our own calls and fields (the extensions) from the product rules'
 * (docs/product/calls.md §7, "Extensions"), machine-readably, so that documents, tests and the
 * reference services' plain mode (`UPSTREAM_EXTENSIONS=off`) all read one list.
 *
 * - A **call** beyond docs/product/calls.md §7's tables carries `extension: <group>` in its CallContract
 *   (contracts/call.ts); one that another reference service calls (the business API's location
 *   search behind the consumer API's GET /search/) also carries `keptWhenOff`, a sentence saying
 *   why it stays in plain mode.
 * - A **field** (of an answer or a request) beyond docs/product/data.md §3 / §7 is wrapped in
 *   `extension(schema, group)`, which records the group as the schema's `x-extension` metadata
 *   (drawn as `x-extension` in docs/openapi/). The field keeps its type: marking it changes no
 *   TypeScript type.
 * - An enum **value** beyond the product rules (the screen name `DisputeReviews`) is listed by
 *   `extensionValues(enumSchema, {value: group})` (metadata `x-extension-values`).
 *
 * Where the product rules give no shape (list wrappers, date formats, error bodies), today's shape
 * is the product rules' part ("ours" in docs/product/calls.md §7) and is not marked. `rulesPart(schema)`
 * derives the schema of the product rules' part: parsing an answer through it drops every marked
 * field and value.
 *
 * Imported by Node's type stripping too (server.ts, `npm run openapi`): explicit `.ts` extensions only.
 */
import { z } from "zod";

/** The extension groups, each with what it adds (docs/product/calls.md §7 "Extensions"). */
export const extensionGroups = {
  reviews: "the provider's dispute reviewers: their screen name and the review calls",
  venues: "venue check-in codes",
  data: "the person's own data: export, original PDFs, deleting the account",
  links: "where a result added by the lab's link was fetched from",
  proof: "the proof a result (and the window it gives) carries",
  pages: "every page of a result's PDF",
  outcome: "a test result's outcome (Negative, Positive, Inconclusive)",
  ids: "ids and records in write answers, and the product ID in follow relations and search hits",
  reasons: "a stable reason code in refused test-result calls",
  account: "the user id and confirmation flag in the identity authority's user info",
  oauth: "RFC 6749's token_type and scope in the token answer",
  mail: "the link target of the username-change mail",
  invite: "accounts made without a password, confirmed by /confirmaccount",
  pass: "the SafeWindow Pass: a signed pass of the open window, and the keys that check it",
} as const;

/** The name of one extension group. */
export type ExtensionGroup = keyof typeof extensionGroups;

/** The metadata key of a marked field (and of a marked operation in docs/openapi/). */
export const extensionKey = "x-extension";
/** The metadata key of an enum's extension values: `{value: group}`. */
export const extensionValuesKey = "x-extension-values";

/**
 * Marks `schema` (a field of an answer or a request) as an extension of group `group`: the schema
 * made optional, with `x-extension: group` metadata (earlier metadata, such as the description,
 * stays on the inner schema). Optional because an upstream that answers as the product rules say leaves the
 * field out (docs/product/calls.md §7 "Extensions"): the app's clients accept the answer, and every screen
 * works without the field.
 */
export function extension<T extends z.ZodType>(schema: T, group: ExtensionGroup): z.ZodOptional<T> {
  return schema.optional().meta({ ...z.globalRegistry.get(schema), [extensionKey]: group });
}

/** The group `schema` is marked with by `extension()`, or undefined for a field of the product rules. */
export function extensionOf(schema: z.ZodType): ExtensionGroup | undefined {
  const group = z.globalRegistry.get(schema)?.[extensionKey];
  return typeof group === "string" && group in extensionGroups ? (group as ExtensionGroup) : undefined;
}

/**
 * Marks values of `schema` (an enum, or any string schema that lets them through) as extensions:
 * `values` maps each such value to its group. In a list, rulesPart and withoutExtensions drop them.
 */
export function extensionValues<T extends z.ZodType>(schema: T, values: Readonly<Record<string, ExtensionGroup>>): T {
  return schema.meta({ [extensionValuesKey]: values }) as T;
}

/** The extension values `extensionValues` marked on `schema` (`{value: group}`), empty for an unmarked schema. */
export function extensionValuesOf(schema: z.ZodType): Readonly<Record<string, ExtensionGroup>> {
  const values = z.globalRegistry.get(schema)?.[extensionValuesKey];
  return values !== null && typeof values === "object" ? (values as Record<string, ExtensionGroup>) : {};
}

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;

const rulesPartCache = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The product rules' part of `schema`: the same schema without its marked fields (objects), without its
 * marked values (an enum loses them; a list drops them before checking its elements), walking
 * objects, arrays, nullables, optionals, defaults, unions and pipes. Parsing an answer through it
 * strips the answer to what the product rules define (objects drop keys they do not name). `schema` itself when
 * nothing in it is marked. Metadata (descriptions) is not carried over.
 */
export function rulesPart<T extends z.ZodType>(schema: T): z.ZodType {
  const cached = rulesPartCache.get(schema);
  if (cached) return cached;
  const result = buildRulesPart(schema);
  rulesPartCache.set(schema, result);
  return result;
}

function buildRulesPart(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  const clone = (changes: Record<string, unknown>) => schema.clone({ ...def, ...changes } as never);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      const kept: Record<string, z.ZodType> = {};
      let changed = false;
      for (const [key, field] of Object.entries(shape)) {
        if (extensionOf(field)) {
          changed = true;
          continue;
        }
        kept[key] = rulesPart(field);
        if (kept[key] !== field) changed = true;
      }
      return changed ? clone({ shape: kept }) : schema;
    }
    case "array": {
      const element = def.element as z.ZodType;
      const dropped = Object.keys(extensionValuesOf(element));
      const inner = rulesPart(element);
      if (inner === element && dropped.length === 0) return schema;
      const array = inner === element ? schema : clone({ element: inner });
      return dropped.length === 0 ? array : z.preprocess((value) => (Array.isArray(value) ? value.filter((v) => !dropped.includes(v)) : value), array);
    }
    case "enum": {
      const dropped = Object.keys(extensionValuesOf(schema));
      if (dropped.length === 0) return schema;
      const entries = Object.fromEntries(Object.entries(def.entries as Record<string, string>).filter(([, v]) => !dropped.includes(v)));
      return clone({ entries });
    }
    case "nullable":
    case "optional":
    case "nonoptional":
    case "default":
    case "prefault":
    case "readonly":
    case "catch": {
      const inner = def.innerType as z.ZodType;
      const spec = rulesPart(inner);
      return spec === inner ? schema : clone({ innerType: spec });
    }
    case "union": {
      const options = def.options as z.ZodType[];
      const spec = options.map((o) => rulesPart(o));
      return spec.every((o, i) => o === options[i]) ? schema : clone({ options: spec });
    }
    case "pipe": {
      const [input, output] = [def.in as z.ZodType, def.out as z.ZodType];
      const [specIn, specOut] = [rulesPart(input), rulesPart(output)];
      return specIn === input && specOut === output ? schema : clone({ in: specIn, out: specOut });
    }
    default:
      return schema;
  }
}

/** One marked field or enum value found in a schema: its key (or value), where it is, its group. */
export interface MarkedField {
  kind: "field" | "value";
  /** The field's key, or the enum value. */
  name: string;
  /** Where in the schema, e.g. `[].result`, `consumer`, `enabledScreens[]`. */
  path: string;
  group: ExtensionGroup;
}

/**
 * Every marked field and enum value in `schema`, outermost first (a marked field's own fields are
 * not listed: the whole field is the extension).
 */
export function markedFields(schema: z.ZodType, path = ""): MarkedField[] {
  const def = defOf(schema);
  const found: MarkedField[] = [];
  for (const [value, group] of Object.entries(extensionValuesOf(schema))) found.push({ kind: "value", name: value, path, group });
  switch (def.type) {
    case "object":
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const at = path ? `${path}.${key}` : key;
        const group = extensionOf(field);
        if (group) found.push({ kind: "field", name: key, path: at, group });
        else found.push(...markedFields(field, at));
      }
      break;
    case "array":
      found.push(...markedFields(def.element as z.ZodType, `${path}[]`));
      break;
    case "nullable":
    case "optional":
    case "nonoptional":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      found.push(...markedFields(def.innerType as z.ZodType, path));
      break;
    case "union":
      for (const option of def.options as z.ZodType[]) found.push(...markedFields(option, path));
      break;
    case "pipe":
      found.push(...markedFields(def.in as z.ZodType, path), ...markedFields(def.out as z.ZodType, path));
      break;
  }
  // A union of two shapes that share a marked field lists it once.
  return found.filter((f, i) => found.findIndex((g) => g.kind === f.kind && g.path === f.path && g.name === f.name) === i);
}

/**
 * `value` (an answer, as JSON) without the fields and enum values `schema` marks, found by walking
 * the schema beside the value: a marked key is deleted wherever any option of a union marks it.
 * Unlike parsing through `rulesPart(schema)`, it never fails: keys the schema does not name stay.
 * Returns a new value; `value` is not changed.
 */
export function withoutExtensions(schema: z.ZodType, value: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const kept: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) {
        const field = shape[key];
        if (field && extensionOf(field)) continue;
        kept[key] = field ? withoutExtensions(field, inner) : inner;
      }
      return kept;
    }
    case "array": {
      if (!Array.isArray(value)) return value;
      const element = def.element as z.ZodType;
      const dropped = Object.keys(extensionValuesOf(element));
      return value.filter((v) => !dropped.includes(v as string)).map((v) => withoutExtensions(element, v));
    }
    case "nullable":
    case "optional":
    case "nonoptional":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return withoutExtensions(def.innerType as z.ZodType, value);
    case "union":
      return (def.options as z.ZodType[]).reduce((v, option) => withoutExtensions(option, v), value);
    case "pipe":
      return withoutExtensions(def.in as z.ZodType, value);
    default:
      return value;
  }
}

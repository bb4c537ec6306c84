/**
 * OpenAPI 3.1 documents of the upstream contracts (docs/architecture/upstream-calls.md §6.1), built with
 * zod-openapi from contracts/identity.ts, contracts/consumer.ts and contracts/business.ts, so that
 * an operator who points the app at real upstreams can check them against what the app expects.
 *
 * `npm run openapi` (this file run by Node) writes docs/openapi/identity.json,
 * docs/openapi/consumer.json and docs/openapi/business.json; tests/unit/openapi.test.ts fails when
 * the committed files differ from freshly built ones.
 *
 * Extensions (contracts/extension.ts): an operation beyond docs/product/calls.md §7 carries
 * `x-extension: <group>` (and `x-extension-kept`, why it answers in plain mode, where it does);
 * a property beyond the product rules carries `x-extension: <group>`; an enum with values beyond them carries
 * `x-extension-values: {value: group}`.
 *
 * Rendering choices: answers are drawn without `additionalProperties: false`, because clients keep
 * the keys a contract names and ignore any other (contracts/call.ts); object keys are sorted,
 * except the properties of a schema, which keep the contract's order.
 */
import { writeFile } from "node:fs/promises";
import type { z } from "zod";
import { createDocument } from "zod-openapi";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import type { CallAuth, CallContracts } from "./call.ts";
import { extensionKey } from "./extension.ts";
import * as business from "./business.ts";
import * as consumer from "./consumer.ts";
import * as identity from "./identity.ts";

/** A built document: plain JSON. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

/** How each kind of caller authenticates, as OpenAPI security schemes. */
const securitySchemes = {
  clientSecret: {
    type: "http",
    scheme: "basic",
    description: "The client's id and secret: HTTP Basic, or client_id and client_secret in the form (RFC 6749 §2.3.1), never both.",
  },
  clientToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An access token of the client-credentials grant (POST /connect/token, scope identity.api).",
  },
  userToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A user's access token of the identity authority's password grant (scopes consumer.api and identity.user); each call acts for its `sub` only.",
  },
} as const;

interface Upstream {
  title: string;
  description: string;
  calls: CallContracts;
  /** Named schemas: drawn once under components.schemas and referenced. */
  schemas: Record<string, z.ZodType>;
  /** The error answers every bearer-token call may give (401, 403, and the consumer API's 503). */
  tokenErrors: ZodOpenApiResponsesObject;
}

const json = (schema: z.ZodType) => ({ "application/json": { schema } });

/** The OpenAPI operation of one call. */
function operation(name: string, call: CallContracts[string], upstream: Upstream): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = { 200: { description: "OK", content: json(call.answer) } };
  if (call.auth !== "clientSecret" && call.auth !== "none") Object.assign(responses, upstream.tokenErrors);
  for (const [status, answer] of Object.entries(call.errorAnswers ?? {})) {
    responses[status as "400"] = { description: answer.description, content: json(answer.schema) };
  }
  let requestBody: ZodOpenApiOperationObject["requestBody"];
  if (call.json) requestBody = { required: true, content: { "application/json": { schema: call.json } } };
  if (call.form) requestBody = { required: true, content: { "application/x-www-form-urlencoded": { schema: call.form } } };
  if (call.multipart) requestBody = { required: true, content: { "multipart/form-data": { schema: call.multipart } } };
  return {
    operationId: name,
    summary: call.summary,
    security: call.auth === "none" ? [] : [{ [call.auth satisfies CallAuth]: [] }],
    ...(call.query ? { requestParams: { query: call.query } } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(call.extension ? { [extensionKey]: call.extension } : {}),
    ...(call.keptWhenOff ? { "x-extension-kept": call.keptWhenOff } : {}),
  };
}

/** Removes `additionalProperties: false` from answers: clients ignore keys a contract does not name. */
function openAnswers({ jsonSchema, io }: { jsonSchema: Record<string, unknown>; io: "input" | "output" }): void {
  if (io === "output" && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
}

/**
 * `value` without `additionalProperties` beside a `$ref`: a marked field that reuses a named schema
 * (contracts/extension.ts) is drawn as a `$ref` with its mark beside it, and zod adds the object's
 * closedness there too, where it would forbid every property of the referenced schema.
 */
function dropClosedRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropClosedRefs);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).filter(([key]) => !(key === "additionalProperties" && "$ref" in value));
  return Object.fromEntries(entries.map(([k, v]) => [k, dropClosedRefs(v)]));
}

/** The document of one upstream, keys sorted (see sortKeys). */
function build(upstream: Upstream): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const [name, call] of Object.entries(upstream.calls)) {
    const item = (paths[call.path] ??= {});
    item[call.method === "GET" ? "get" : "post"] = operation(name, call, upstream);
  }
  const usedSchemes = new Set(Object.values(upstream.calls).map((c) => c.auth));
  const document = createDocument(
    {
      openapi: "3.1.0",
      info: { title: upstream.title, version: "1", description: upstream.description },
      paths,
      components: {
        schemas: upstream.schemas,
        securitySchemes: Object.fromEntries(Object.entries(securitySchemes).filter(([scheme]) => usedSchemes.has(scheme as CallAuth))),
      },
    },
    { override: openAnswers },
  );
  return sortKeys(dropClosedRefs(document)) as OpenApiDocument;
}

/** `value` with every object's keys sorted, except a schema's `properties` (the contract's order stays). */
export function sortKeys(value: unknown, parentKey = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  if (parentKey !== "properties") entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v, parentKey === "properties" ? "" : k)]));
}

const generated = "Generated from contracts/%s.ts by `npm run openapi`; do not edit.";

/** The identity authority's document (docs/product/calls.md §7, identity table). */
export function identityDocument(): OpenApiDocument {
  return build({
    title: "SafeWindow identity authority",
    description: `The calls the SafeWindow web app makes to its identity authority, with the answers it accepts. ${generated.replace("%s", "identity")}`,
    calls: identity.identityCalls,
    schemas: {
      ApiError: identity.apiErrorSchema,
      EmailValidation: identity.emailValidationSchema,
      IdentityError: identity.identityErrorSchema,
      IdentityRefusal: identity.identityRefusalSchema,
      IdentityResult: identity.identityResultSchema,
      TokenAnswer: identity.tokenAnswerSchema,
      TokenError: identity.tokenErrorSchema,
      UserInfo: identity.userInfoSchema,
    },
    tokenErrors: {
      401: { description: "invalid_token: no bearer token, or one that does not verify.", content: json(identity.apiErrorSchema) },
      403: { description: "insufficient_scope: a token of the other kind (client token on a user call, or the reverse).", content: json(identity.apiErrorSchema) },
    },
  });
}

/** The consumer API's document (docs/product/calls.md §7, consumer table). */
export function consumerDocument(): OpenApiDocument {
  return build({
    title: "SafeWindow consumer API",
    description: `The calls the SafeWindow web app makes to its consumer API, with the answers it accepts. ${generated.replace("%s", "consumer")}`,
    calls: consumer.consumerCalls,
    schemas: {
      ApiError: consumer.apiErrorSchema,
      Consumer: consumer.consumerSchema,
      FieldError: consumer.fieldErrorSchema,
      Permissions: consumer.permissionsSchema,
      ProfileRefusal: consumer.profileRefusalSchema,
      PropertyValue: consumer.propertyValueSchema,
      PublisherHit: consumer.publisherHitSchema,
      ResultRefusal: consumer.resultRefusalSchema,
      SafeWindowCard: consumer.safeWindowSchema,
      ScreenName: consumer.screenNameSchema,
      Subscription: consumer.subscriptionSchema,
      SubscriptionStatus: consumer.subscriptionStatusSchema,
      TestOutcome: consumer.testOutcomeSchema,
      TestResult: consumer.testResultSchema,
      UploadAnswer: consumer.uploadAnswerSchema,
      WriteAnswer: consumer.writeAnswerSchema,
    },
    tokenErrors: {
      401: { description: "invalid_token: no bearer token, or one that does not verify.", content: json(consumer.apiErrorSchema) },
      403: { description: "insufficient_scope: a token without a user (client credentials).", content: json(consumer.apiErrorSchema) },
      503: { description: "temporarily_unavailable: the identity authority could not be asked to verify the token; Retry-After 5.", content: json(consumer.apiErrorSchema) },
    },
  });
}

/** The business API's document (docs/product/calls.md §7.3; the shapes are ours, docs/venues.md). */
export function businessDocument(): OpenApiDocument {
  return build({
    title: "SafeWindow business API",
    description: `The calls the SafeWindow web app makes to its business API, with the answers it accepts. ${generated.replace("%s", "business")}`,
    calls: business.businessCalls,
    schemas: {
      ApiError: business.apiErrorSchema,
      Application: business.applicationSchema,
      ApplicationRole: business.applicationRoleSchema,
      BillingDetails: business.billingDetailsSchema,
      HospitalityGroup: business.hospitalityGroupSchema,
      Invoice: business.invoiceSchema,
      LicensedAdministrator: business.licensedAdministratorSchema,
      Location: business.locationSchema,
      LocationAdministrator: business.locationAdministratorSchema,
      LocationFields: business.locationFieldsSchema,
      Subscription: business.subscriptionSchema,
      UserInfo: business.userInfoSchema,
      UserRoleLocation: business.userRoleLocationSchema,
    },
    tokenErrors: {
      401: { description: "invalid_token: no bearer token, or one that does not verify or is not for business.api.", content: json(business.apiErrorSchema) },
      403: { description: "insufficient_scope: a token without a user (client credentials).", content: json(business.apiErrorSchema) },
      503: { description: "temporarily_unavailable: the identity authority could not be asked to verify the token; Retry-After 5.", content: json(business.apiErrorSchema) },
    },
  });
}

/** Every document, by its file name under docs/openapi/. */
export function openApiDocuments(): Record<"identity.json" | "consumer.json" | "business.json", OpenApiDocument> {
  return { "identity.json": identityDocument(), "consumer.json": consumerDocument(), "business.json": businessDocument() };
}

/** A document as its committed file: pretty-printed with two spaces, a trailing newline. */
export function serializeDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Writes every document to docs/openapi/. */
export async function writeOpenApiDocuments(): Promise<void> {
  for (const [file, document] of Object.entries(openApiDocuments())) {
    const target = new URL(`../docs/openapi/${file}`, import.meta.url);
    await writeFile(target, serializeDocument(document));
    console.log(`wrote docs/openapi/${file}`);
  }
}

if (import.meta.main) await writeOpenApiDocuments();

// The committed OpenAPI documents (docs/openapi/) are the ones contracts/openapi.ts builds from the
// contracts today, and each lists every call of its contract with its answer.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { CallContracts } from "../../contracts/call.ts";
import { businessCalls } from "../../contracts/business.ts";
import { consumerCalls } from "../../contracts/consumer.ts";
import { identityCalls } from "../../contracts/identity.ts";
import { openApiDocuments, serializeDocument } from "../../contracts/openapi.ts";

const contracts: Record<string, CallContracts> = { "identity.json": identityCalls, "consumer.json": consumerCalls, "business.json": businessCalls };
const built = openApiDocuments();

describe.each(Object.entries(built))("docs/openapi/%s", (file, document) => {
  it("is the document the contracts build today", async () => {
    const committed = await readFile(new URL(`../../docs/openapi/${file}`, import.meta.url), "utf8").catch(() => "(missing)");
    const fresh = serializeDocument(document);
    if (committed !== fresh) {
      expect.fail(`docs/openapi/${file} is stale: it differs from what contracts/ build. Run \`npm run openapi\` and commit the result.`);
    }
  });

  it("lists every call of its contract, with the call's name, a 200 answer and its request", () => {
    const calls = contracts[file]!;
    const paths = document.paths ?? {};
    for (const [name, call] of Object.entries(calls)) {
      const op = paths[call.path]?.[call.method === "GET" ? "get" : "post"];
      expect(op, `${call.method} ${call.path} (${name})`).toBeDefined();
      expect(op?.operationId).toBe(name);
      expect(op?.responses?.["200"]?.content?.["application/json"]?.schema, `${name}: 200 answer`).toBeDefined();
      for (const status of Object.keys(call.errorAnswers ?? {})) expect(op?.responses?.[status], `${name}: ${status} answer`).toBeDefined();
      const queryNames = Object.keys(call.query?.shape ?? {});
      const parameters = (op?.parameters ?? []) as { name: string; in: string }[];
      expect(parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual(queryNames);
      const bodyType = call.json ? "application/json" : call.form ? "application/x-www-form-urlencoded" : call.multipart ? "multipart/form-data" : undefined;
      const body = op?.requestBody as { content?: Record<string, unknown> } | undefined;
      expect(body ? Object.keys(body.content ?? {}) : [], `${name}: request body`).toEqual(bodyType ? [bodyType] : []);
    }
    const operations = Object.values(paths).flatMap((item) => Object.keys(item ?? {}).filter((k) => k === "get" || k === "post"));
    expect(operations).toHaveLength(Object.keys(calls).length);
  });
});

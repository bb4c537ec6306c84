// docs/operating.md names every variable a process reads: the web app's (app/server/config.server.ts),
// the identity authority's, the consumer API's and the business API's (their main.ts), read from their envSchema objects.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The variable names of `file`'s `envSchema = z.object({ … })` (its top-level keys). */
function variablesOf(file: string): string[] {
  const source = readFileSync(path.join(root, file), "utf8");
  const start = source.indexOf("envSchema = z.object({");
  const end = source.indexOf("\n});", start);
  expect(start, file).toBeGreaterThan(-1);
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
}

describe("docs/operating.md", () => {
  it("names every variable of the web app and of the three services", () => {
    const doc = readFileSync(path.join(root, "docs/operating.md"), "utf8");
    for (const file of ["app/server/config.server.ts", "services/identity/main.ts", "services/consumer/main.ts", "services/business/main.ts"]) {
      const variables = variablesOf(file);
      expect(variables.length, file).toBeGreaterThan(5);
      expect(variables.filter((name) => !doc.includes(`\`${name}\``)), file).toEqual([]);
    }
  });
});

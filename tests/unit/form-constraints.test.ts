// A form's HTML constraints come from the zod schema its server side validates with
// (app/server/form-constraints.server.ts), never from a number typed again in a route or component.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { disputeSchema } from "../../app/forms/dispute";
import { resultLinkSchema } from "../../app/forms/link";
import { reviewSchema } from "../../app/forms/review";
import { peopleSearchSchema, zipSearchSchema } from "../../app/forms/search";
import { checkinCodeSchema } from "../../app/forms/venue";
import * as messages from "../../app/messages";
import { htmlConstraints } from "../../app/server/form-constraints.server";

const root = path.resolve(import.meta.dirname, "../..");

/** Every .tsx under app/routes and app/components (sub-folders too), as [relative path, text]. */
function pageSources(): [string, string][] {
  return ["app/routes", "app/components"].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".tsx"))
      .map((name): [string, string] => [path.join(dir, name), readFileSync(path.join(root, dir, name), "utf8")]),
  );
}

describe("HTML constraints from the forms' schemas", () => {
  it("gives each form's length bound as its schema checks it", () => {
    expect(htmlConstraints(peopleSearchSchema(messages))).toEqual({ q: { maxLength: 254 } });
    expect(htmlConstraints(zipSearchSchema(messages))).toEqual({ zip: { maxLength: 5 } });
    expect(htmlConstraints(checkinCodeSchema(messages))).toEqual({ code: { maxLength: 9 } });
    expect(htmlConstraints(resultLinkSchema(messages))).toEqual({ url: { maxLength: 2048 } });
    expect(htmlConstraints(disputeSchema(messages)).disputeComment?.maxLength).toBeGreaterThan(0);
    expect(htmlConstraints(reviewSchema(messages)).responseComment?.maxLength).toBeGreaterThan(0);
  });

  it("checks on the server what the constraint promises the browser", () => {
    expect(peopleSearchSchema(messages).safeParse({ q: "a".repeat(255) }).success).toBe(false);
    expect(peopleSearchSchema(messages).safeParse({ q: " a b " }).error?.issues[0]?.message).toBe(messages.searchTooShort);
    expect(peopleSearchSchema(messages).safeParse({ q: "ab\u0007c" }).error?.issues[0]?.message).toBe(messages.searchInvalid);
    expect(zipSearchSchema(messages).safeParse({ zip: "123456" }).error?.issues[0]?.message).toBe(messages.zipInvalid);
    expect(zipSearchSchema(messages).safeParse({ zip: " 02139 " }).data).toEqual({ zip: "02139" });
    expect(checkinCodeSchema(messages).safeParse({ code: "ab3-d9e" }).data).toEqual({ code: "AB3D9E" });
    expect(checkinCodeSchema(messages).safeParse({ code: "ab3-d9e-x" }).error?.issues[0]?.message).toBe(messages.checkinCodeInvalid);
    expect(checkinCodeSchema(messages).safeParse({ code: "a b 3 - d 9 e" }).success).toBe(false);
  });

  it("no route or component types a length bound of its own", () => {
    const typed = pageSources().flatMap(([file, text]) =>
      text
        .split("\n")
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => /maxLength(=\{|:)\s*[\w.]*\d|maxLength(=\{|:)\s*\w*Max\b/.test(line))
        .map(({ line, index }) => `${file}:${index + 1}: ${line.trim()}`),
    );
    expect(typed).toEqual([]);
  });
});

// docs/product/pass.md §11.3, the worked example: a checker written from the docs alone, with a
// standard JOSE library (jose, used directly here, not contracts/pass.ts), checks the example pass
// against the example JWK Set at the example's time, and refuses it with one payload character
// changed; contracts/pass.ts's checkPass agrees.
import { readFileSync } from "node:fs";
import { createLocalJWKSet, jwtVerify } from "jose";
import type { JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { checkPass } from "../../contracts/pass";

const doc = readFileSync(new URL("../../docs/product/pass.md", import.meta.url), "utf8");
const example = doc.slice(doc.indexOf('<a id="s11-3"></a>'));
const keys = JSON.parse(/```json\n([\s\S]*?)```/.exec(example)![1]!) as JSONWebKeySet;
const pass = /```text\n([\s\S]*?)\n```/.exec(example)![1]!;
const iss = /The issuer, `iss`: `([^`]+)`/.exec(example)![1]!;
const at = new Date("2026-11-29T12:00:00Z");

describe("the pass format's worked example (docs/product/pass.md §11.3)", () => {
  it("checks with jose, from the docs' words alone", async () => {
    const { payload, protectedHeader } = await jwtVerify(pass, createLocalJWKSet(keys), { algorithms: ["ES256"], issuer: iss, currentDate: at, clockTolerance: 300 });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: "2026a" });
    expect(payload).toEqual({ iss, n: "AL", b: "12-10", s: Date.parse("2026-11-29T10:00:00Z") / 1000, iat: Date.parse("2026-11-28T15:30:00Z") / 1000, exp: Date.parse("2026-11-30T10:00:00Z") / 1000 });
    expect(await checkPass(pass, keys, iss, at)).toEqual({
      ok: true,
      window: "weak",
      strongUntil: new Date("2026-11-29T10:00:00Z"),
      weakUntil: new Date("2026-11-30T10:00:00Z"),
      issuedAt: new Date("2026-11-28T15:30:00Z"),
      initials: "AL",
      birthMonthDay: "12-10",
    });
  });

  it("is refused with one payload character changed", async () => {
    const [header, payload, signature] = pass.split(".") as [string, string, string];
    const changed = `${header}.${payload.slice(0, 10)}${payload[10] === "A" ? "B" : "A"}${payload.slice(11)}.${signature}`;
    await expect(jwtVerify(changed, createLocalJWKSet(keys), { algorithms: ["ES256"], issuer: iss, currentDate: at })).rejects.toThrow();
    expect(await checkPass(changed, keys, iss, at)).toEqual({ ok: false, reason: "damaged" });
  });
});

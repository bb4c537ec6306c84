// The SafeWindow Pass format (contracts/pass.ts; docs/product/pass.md): claims made from a profile and
// an open window, signed ES256, checked against a published JWK Set at a given time; every refusal a
// checker must give (a forged, altered, expired, early, foreign or unknown-key pass, alg none, HS256
// with the public key as its secret, text too long, a URL to another site); and the QR code of the
// pass's URL within version 15 at error correction M for a 60-character public address.
import { CompactSign, exportJWK, generateKeyPair } from "jose";
import type { CryptoKey, JSONWebKeySet } from "jose";
import QRCode from "qrcode";
import { beforeAll, describe, expect, it } from "vitest";
import { checkPass, passClaims, passInText, passUrl, signPass } from "../../contracts/pass";

const iss = "https://safewindow.example.com";
const now = new Date("2026-11-28T12:00:00Z");
const hours = (n: number) => new Date(now.getTime() + n * 3600_000);
const ada = { firstName: "ada", lastName: "Lovelace", dob: "1990-12-10" };
const window = { strongSafetyDate: hours(20), weakSafetyDate: hours(44) };

let privateKey: CryptoKey;
let keys: JSONWebKeySet;
let otherPrivateKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  keys = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] };
  otherPrivateKey = (await generateKeyPair("ES256")).privateKey;
});

const sign = (claims = passClaims(iss, ada, window, now)!, kid = "k1", key: CryptoKey = privateKey) => signPass(claims, { kid, privateKey: key });
const base64url = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

describe("a pass's claims", () => {
  it("hold only the issuer, the initials, the birth month and day, strong-until, issued-at and weak-until", () => {
    expect(passClaims(iss, ada, window, now)).toEqual({ iss, n: "AL", b: "12-10", s: Math.floor(hours(20).getTime() / 1000), iat: Math.floor(now.getTime() / 1000), exp: Math.floor(hours(44).getTime() / 1000) });
    // A letter with its accent, whatever its Unicode form, and a first name that starts with white space.
    expect(passClaims(iss, { firstName: "  e\u0301mile", lastName: "Ørsted", dob: "1977-08-14" }, window, now)?.n).toBe("ÉØ");
  });

  it("are not made without an open window", () => {
    expect(passClaims(iss, ada, { strongSafetyDate: null, weakSafetyDate: null }, now)).toBeNull();
    expect(passClaims(iss, ada, { strongSafetyDate: hours(-30), weakSafetyDate: hours(-1) }, now)).toBeNull();
    expect(passClaims(iss, ada, { strongSafetyDate: hours(-30), weakSafetyDate: now }, now)).toBeNull();
    // Weak only: strong-until in the past.
    expect(passClaims(iss, ada, { strongSafetyDate: hours(-2), weakSafetyDate: hours(10) }, now)?.s).toBeLessThan(now.getTime() / 1000);
  });
});

describe("checking a pass", () => {
  it("checks a pass it signed: strong, then weak, then expired (with a few minutes' tolerance)", async () => {
    const pass = await sign();
    const [header] = pass.split(".");
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "ES256", kid: "k1" });
    expect(await checkPass(pass, keys, iss, now)).toEqual({
      ok: true,
      window: "strong",
      strongUntil: hours(20),
      weakUntil: hours(44),
      issuedAt: now,
      initials: "AL",
      birthMonthDay: "12-10",
    });
    expect(await checkPass(pass, keys, iss, hours(21))).toMatchObject({ ok: true, window: "weak" });
    expect(await checkPass(pass, keys, iss, new Date(hours(44).getTime() + 4 * 60_000))).toMatchObject({ ok: true, window: "weak" });
    expect(await checkPass(pass, keys, iss, new Date(hours(44).getTime() + 6 * 60_000))).toEqual({ ok: false, reason: "expired" });
    // Issued a little ahead of the checker's clock: allowed; far ahead: not yet valid.
    expect(await checkPass(pass, keys, iss, new Date(now.getTime() - 4 * 60_000))).toMatchObject({ ok: true });
    expect(await checkPass(pass, keys, iss, new Date(now.getTime() - 6 * 60_000))).toEqual({ ok: false, reason: "not_yet_valid" });
  });

  it("refuses an altered, foreign, unknown-key, unsigned or HS256 pass, and text that is no pass", async () => {
    const pass = await sign();
    const [header, payload, signature] = pass.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const refusal = async (text: string) => {
      const result = await checkPass(text, keys, iss, now);
      return result.ok ? "checked" : result.reason;
    };
    // A payload changed after signing (a later weak-until), and a signature changed by one character.
    expect(await refusal(`${header}.${base64url({ ...claims, exp: claims.exp + 86400 })}.${signature}`)).toBe("damaged");
    expect(await refusal(`${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`)).toBe("damaged");
    // Cut short, nothing, too long, not base64url.
    expect(await refusal(pass.slice(0, pass.length - 20))).toBe("damaged");
    expect(await refusal("")).toBe("damaged");
    expect(await refusal(`${pass}${"A".repeat(1024)}`)).toBe("damaged");
    expect(await refusal("not a pass")).toBe("damaged");
    // Another issuer's pass, signed with our key; a key we do not publish, under our kid and another.
    expect(await refusal(await sign({ ...claims, iss: "https://evil.example" }))).toBe("other_issuer");
    expect(await refusal(await sign(claims, "k1", otherPrivateKey))).toBe("damaged");
    expect(await refusal(await sign(claims, "k9", otherPrivateKey))).toBe("unknown_key");
    // alg none, and HS256 with the public key as its secret.
    expect(await refusal(`${base64url({ alg: "none", kid: "k1" })}.${payload}.`)).toBe("damaged");
    const hs256 = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .sign(new TextEncoder().encode(JSON.stringify(keys.keys[0])));
    expect(await refusal(hs256)).toBe("damaged");
    // Claims missing or of the wrong shape, even when signed by us.
    for (const broken of [{ ...claims, b: "1990-12-10" }, { ...claims, n: "" }, { ...claims, s: "soon" }, { ...claims, iat: undefined }]) {
      expect(await refusal(await signPass(broken, { kid: "k1", privateKey }))).toBe("damaged");
    }
    await expect(signPass(claims, { kid: "too-long-kid", privateKey })).rejects.toThrow(TypeError);
  });

  it("finds the pass in a QR code's URL to this checker, and refuses a URL to anywhere else", async () => {
    const pass = await sign();
    expect(passInText(passUrl(iss, pass), iss)).toBe(pass);
    expect(passInText(`  ${pass}\n`, iss)).toBe(pass);
    expect(passInText(passUrl("https://safewindow.example.com.evil.example", pass), iss)).toEqual({ reason: "other_issuer" });
    expect(passInText(`https://evil.example/verify#${pass}`, iss)).toEqual({ reason: "other_issuer" });
    expect(passInText(`${iss}/elsewhere#${pass}`, iss)).toEqual({ reason: "other_issuer" });
    expect(passInText(`${iss}/verify`, iss)).toEqual({ reason: "damaged" });
    expect(passInText("x".repeat(2049), iss)).toEqual({ reason: "damaged" });
    // Under a base path.
    expect(passInText(passUrl(`${iss}/sw`, pass), `${iss}/sw`)).toBe(pass);
    expect(passInText(passUrl(iss, pass), `${iss}/sw`)).toEqual({ reason: "other_issuer" });
  });
});

describe("the QR code of a pass", () => {
  it("is at most version 15 at error correction M for a 60-character public address, with the longest claims", async () => {
    const address = `https://${"a".repeat(60 - "https://".length - "/sw".length)}/sw`;
    expect(address).toHaveLength(60);
    // The longest claims: two letters of four UTF-8 bytes each, dates in the year 2286 (11 digits), an 8-character kid.
    const claims = { iss: address, n: "𝔄𝔅", b: "12-31", s: 99_999_999_999, iat: 99_999_999_999, exp: 99_999_999_999 };
    const pass = await signPass(claims, { kid: "abcdefgh", privateKey });
    const qr = QRCode.create(passUrl(address, pass), { errorCorrectionLevel: "M" });
    expect(qr.version).toBeLessThanOrEqual(15);
  });
});

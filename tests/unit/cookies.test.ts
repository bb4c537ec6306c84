// The app's cookies (app/server/cookies.server.ts): a value read (decoded, and for a signed cookie
// verified) is remembered by its exact text, and the Cookie header parsed last is kept while the same
// text comes again, so the answer must be the answer React Router's own parse gives for the same
// header, whatever the header holds: the cookie twice, an empty value, encoded characters, a value
// altered by one character, another cookie's value under the name, values of every JSON type, headers
// read in turn.
import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appCookie, knownMaxChars } from "../../app/server/cookies.server";
import { parseConfig, setAppConfig } from "../../app/server/config.server";

const secret = "a-session-secret-of-the-tests-0123456789";

describe("a signed app cookie's parse", () => {
  beforeAll(() => setAppConfig(parseConfig({ SESSION_SECRET: secret })));
  afterAll(() => setAppConfig(parseConfig({})));

  it("answers what React Router's own parse answers, the first time and every time after", async () => {
    const cookie = appCookie("__session", { maxAge: 60, signed: true });
    const plain = createCookie(cookie.name, { secrets: [secret], path: "/", sameSite: "lax", httpOnly: true });
    const valid = (await cookie.serialize("a1b2c3")).split(";")[0]!;
    const other = (await cookie.serialize("d4e5f6")).split(";")[0]!;
    const value = valid.slice(valid.indexOf("=") + 1);
    const at = [...value].findIndex((c, n) => n > value.lastIndexOf(".") + 2 && /[A-Za-z0-9]/.test(c));
    const altered = `${cookie.name}=${value.slice(0, at)}${value[at] === "A" ? "B" : "A"}${value.slice(at + 1)}`;
    const headers = [
      valid,
      `${valid}; ${other}`,
      `${other}; ${valid}`,
      `${cookie.name}=JUNK; ${valid}`,
      `${valid}; ${cookie.name}=JUNK`,
      `${cookie.name}=; ${valid}`,
      `${cookie.name}=${encodeURIComponent(value)}`,
      `${cookie.name}=${value}%`,
      altered,
      `x=1; ${altered}; ${valid}`,
      "x=1",
      "",
    ];
    for (let round = 0; round < 3; round++) {
      for (const header of headers) expect(await cookie.parse(header), `${header} (round ${round})`).toEqual(await plain.parse(header));
    }
    expect(await cookie.parse(valid)).toBe("a1b2c3");
    expect(await cookie.parse(altered)).toBeNull();
  });

  it("is one object per name and settings while the configuration stays", () => {
    expect(appCookie("__session", { maxAge: 60, signed: true })).toBe(appCookie("__session", { maxAge: 60, signed: true }));
    expect(appCookie("__session", { maxAge: 60, signed: true })).not.toBe(appCookie("__session", { maxAge: 61, signed: true }));
  });
});

describe("an unsigned app cookie's parse", () => {
  it("answers what React Router's own parse answers, the first time and every time after, headers read in turn", async () => {
    const language = appCookie("sw_lang", { maxAge: 60 });
    const zone = appCookie("tz", { maxAge: 60 });
    const plain = (cookie: typeof language) => createCookie(cookie.name, { path: "/", sameSite: "lax", httpOnly: true });
    const pair = async (cookie: typeof language, value: unknown) => (await plain(cookie).serialize(value)).split(";")[0]!;
    const values = ["es", "Europe/Madrid", "", 3, 0, true, false, null, { a: 1 }, ["x"], "señal ✓"];
    const headers = [
      ...(await Promise.all(values.map((value) => pair(language, value)))),
      ...(await Promise.all(values.map(async (value) => `${await pair(zone, value)}; ${await pair(language, value)}`))),
      `${await pair(language, "es")}; ${await pair(language, "en")}`,
      `${language.name}=%%%not-base64`,
      `${language.name}=${btoa("not json")}`,
      `${language.name}=`,
      `${language.name}`,
      "x=1",
      "",
    ];
    for (let round = 0; round < 3; round++) {
      // Each header read by both cookies in turn, then the next header: the kept parse changes with the text.
      for (const header of headers) {
        for (const cookie of [language, zone]) expect(await cookie.parse(header), `${cookie.name} in ${header} (round ${round})`).toEqual(await plain(cookie).parse(header));
      }
    }
    expect(await language.parse(await pair(language, "es"))).toBe("es");
  });

  it("answers right when clients send more text than it keeps (its size bound evicts, it never misreads)", async () => {
    const cookie = appCookie("sw_strong_only", { maxAge: 60 });
    const plain = createCookie(cookie.name, { path: "/", sameSite: "lax", httpOnly: true });
    // 400 values of about 4,000 characters each, their texts (base64) about 5,400: over knownMaxChars together.
    const headers = await Promise.all(Array.from({ length: 400 }, async (_, n) => (await plain.serialize(`${n}:${"x".repeat(4000)}`)).split(";")[0]!));
    expect(headers.reduce((sum, header) => sum + 2 * header.length, 0)).toBeGreaterThan(knownMaxChars);
    for (const header of [...headers, ...headers.slice(0, 50)]) expect(await cookie.parse(header)).toBe(await plain.parse(header));
  });

  it("never hands out the same object twice: a value read as an object is read again each time", async () => {
    const cookie = appCookie("sw_guidelines_read", { maxAge: 60 });
    const header = (await createCookie(cookie.name, { path: "/" }).serialize({ read: true })).split(";")[0]!;
    const first = (await cookie.parse(header)) as { read: boolean };
    first.read = false;
    expect(await cookie.parse(header)).toEqual({ read: true });
  });
});

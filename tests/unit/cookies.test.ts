// The app's signed cookies (app/server/cookies.server.ts): a verified value is remembered by its
// exact text, so the remembered answer must be the answer React Router's own parse gives for the same
// header, whatever the header holds: the cookie twice, an empty value, encoded characters, a value
// altered by one character, another cookie's value under the name.
import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appCookie } from "../../app/server/cookies.server";
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

import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { $ZodType } from "zod/v4/core";
import {
  confirmAccountSchema,
  linkParameters,
  loginSchema,
  registrationSchema,
  requestPasswordChangeSchema,
  resetPasswordSchema,
} from "../../app/forms/account";
import { disputeSchema } from "../../app/forms/dispute";
import { isValidPassword } from "../../app/forms/password";
import { personalInfoSchema, yourInfoSchema } from "../../app/forms/profile";
import { changePasswordSchema, changeUserNameSchema } from "../../app/forms/settings";
import { parseSubmission } from "../../app/forms/parse";
import * as messages from "../../app/messages";

type ZodSchema = $ZodType<Record<string, unknown>, Record<string, unknown>>;

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
}

function errors(values: Record<string, string>) {
  const submission = parseWithZod(form(values), { schema: registrationSchema(messages) });
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
}

describe("docs/product/data.md §5 password rule", () => {
  it.each(["Window#2026a", "aB3$efgh", "ZZzz11!!"])("accepts %s", (p) => expect(isValidPassword(p)).toBe(true));
  it.each(["Ab1!", "abcdefg1!", "ABCDEFG1!", "Abcdefgh!", "Abcdefgh1", "Abcdefg1(", "A".repeat(130) + "a1!"])(
    "rejects %s",
    (p) => expect(isValidPassword(p)).toBe(false),
  );
});

describe("registration schema (docs/product/data.md §5)", () => {
  const valid = { email: "a@example.com", password: "Window#2026a", confirmPassword: "Window#2026a", acceptTerms: "on", acceptPrivacy: "on" };

  it("accepts a complete form", () => {
    expect(parseWithZod(form(valid), { schema: registrationSchema(messages) }).status).toBe("success");
  });
  it.each([
    [{ email: "" }, "email", messages.registerEmailRequired],
    [{ email: "nope" }, "email", messages.emailInvalid],
    [{ password: "", confirmPassword: "" }, "password", messages.registerPasswordRequired],
    [{ password: "Ab1!", confirmPassword: "Ab1!" }, "password", messages.passwordTooShort],
    [{ password: "abcdefgh1", confirmPassword: "abcdefgh1" }, "password", messages.passwordFormat],
    [{ confirmPassword: "other" }, "confirmPassword", messages.passwordsDoNotMatch],
    [{ acceptTerms: "" }, "acceptTerms", messages.acceptTermsRequired],
    [{ acceptPrivacy: "" }, "acceptPrivacy", messages.acceptPrivacyRequired],
  ])("%j gives %s the message %s", (change, field, message) => {
    const values = Object.fromEntries(Object.entries({ ...valid, ...change }).filter(([, v]) => v !== ""));
    expect(errors(values)[field]).toContain(message);
  });
  it.each([
    ["abc", messages.passwordTooShort],
    ["abcdefgh", messages.passwordFormat],
  ])("reports one message for the password %j, the first rule it breaks", (password, message) => {
    expect(errors({ ...valid, password, confirmPassword: password }).password).toEqual([message]);
  });
});

describe("reset password schema", () => {
  it("requires the confirmation to match", () => {
    const submission = parseWithZod(form({ newPassword: "Window#2026a", confirmPassword: "Window#2026b" }), { schema: resetPasswordSchema(messages) });
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.confirmPassword).toEqual([messages.passwordsDoNotMatch]);
  });
});

describe("settings password change schema (docs/product/data.md §5)", () => {
  const valid = { intent: "password", currentPassword: "Window#2026a", newPassword: "Better!Pass77", confirmPassword: "Better!Pass77" };
  const errorsOf = (change: Record<string, string>) => {
    const submission = parseWithZod(form({ ...valid, ...change }), { schema: changePasswordSchema(messages) });
    return submission.status === "success" ? {} : (submission.reply().error ?? {});
  };

  it("accepts a complete form", () => {
    expect(errorsOf({})).toEqual({});
  });
  it.each(["Ab1!", "abcdefgh1", "Abcdefgh1"])("shows the shared password message for the new password %s", (password) => {
    expect(errorsOf({ newPassword: password, confirmPassword: password }).newPassword).toEqual([messages.passwordFormat]);
  });
  it("requires the confirmation to match", () => {
    expect(errorsOf({ confirmPassword: "Better!Pass78" }).confirmPassword).toEqual([messages.passwordsDoNotMatch]);
  });
});

describe("linkParameters (docs/product/data.md §5 confirm account)", () => {
  it("names the first missing parameter", () => {
    expect(linkParameters(new URL("http://h/x"), messages)).toEqual({ problem: messages.missingEmailParameter });
    expect(linkParameters(new URL("http://h/x?email=a%40b.c"), messages)).toEqual({ problem: messages.missingTokenParameter });
    expect(linkParameters(new URL("http://h/x?email=a%40b.c&token=t"), messages)).toEqual({ email: "a@b.c", token: "t" });
  });
});

describe("control characters (docs/security/README.md Input)", () => {
  const fieldErrors = (schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string>) => {
    const submission = parseWithZod(form(values), { schema });
    return submission.status === "success" ? {} : (submission.reply().error ?? {});
  };

  it.each(["\u0000", "\u0007", "\u001b", "\u007f", "\n", "\t"])("a single-line field refuses U+%s with the field's message", async (c) => {
    const { loginSchema } = await import("../../app/forms/account");
    expect(fieldErrors(loginSchema(messages), { email: `a${c}@example.com`, password: "x" }).email).toEqual([messages.controlCharacters]);
    expect(fieldErrors(loginSchema(messages), { email: "a@example.com", password: `pass${c}word` }).password).toEqual([messages.controlCharacters]);
    expect(errors({ email: "a@example.com", password: `Window#2026a${c}`, confirmPassword: `Window#2026a${c}`, acceptTerms: "on", acceptPrivacy: "on" }).password).toContain(messages.controlCharacters);
  });

  it("the dispute comment keeps tab, CR and LF, and refuses NUL", async () => {
    const { disputeSchema } = await import("../../app/forms/dispute");
    expect(fieldErrors(disputeSchema(messages), { disputeComment: "Line one\r\n\tline two" })).toEqual({});
    expect(fieldErrors(disputeSchema(messages), { disputeComment: "typo\u0000" }).disputeComment).toEqual([messages.controlCharacters]);
  });

  it("profile names refuse a NUL", async () => {
    const { yourInfoSchema } = await import("../../app/forms/profile");
    expect(fieldErrors(yourInfoSchema(messages), { firstName: "Gr\u0000ace", lastName: "Hopper", dob: "12/09/1986", postalCode: "10001" }).firstName).toEqual([messages.controlCharacters]);
  });
});

describe("the browser's parse (parseSubmission) and the server's (parseWithZod) agree", () => {
  const long = (n: number) => "a".repeat(n);
  // Every form schema, with posts that pass and posts that break each kind of check once (the
  // settings intent is not broken: the action picks the schema by it, so a wrong one never parses).
  const cases: [string, ZodSchema, Record<string, string>[]][] = [
    ["login", loginSchema(messages), [{}, { email: "", password: "" }, { email: " a@b.c ", password: "x", redirectTo: "" }, { email: long(300), password: long(1100) }, { email: "a\u0000b", password: "p", redirectTo: long(3000) }]],
    ["registration", registrationSchema(messages), [{}, { email: "nope", password: "Ab1!", confirmPassword: "x" }, { email: "a@example.com", password: "Window#2026a", confirmPassword: "Window#2026a", acceptTerms: "on", acceptPrivacy: "on" }, { email: long(250) + "@b.co", password: long(200) }]],
    ["confirm account", confirmAccountSchema(messages), [{}, { password: "abcdefgh1" }, { password: "Window#2026a" }]],
    ["request password change", requestPasswordChangeSchema(messages), [{}, { email: "   " }, { email: "a@example.com" }]],
    ["reset password", resetPasswordSchema(messages), [{}, { newPassword: "Window#2026a", confirmPassword: "Window#2026b" }, { newPassword: "Window#2026a", confirmPassword: "Window#2026a" }]],
    ["your info", yourInfoSchema(messages), [{}, { firstName: long(101), lastName: "B", dob: "13/40/1990", postalCode: "!" }, { firstName: "A", lastName: "B", dob: "01/01/2020", postalCode: "12345" }, { firstName: "A", lastName: "B", dob: "01/01/1980", postalCode: "12345" }]],
    ["personal info", personalInfoSchema(messages), [{ firstName: "A\u0007", lastName: "", dob: "1980-01-01", postalCode: long(13) }]],
    ["settings password", changePasswordSchema(messages), [{ intent: "password" }, { intent: "password", currentPassword: "x", newPassword: "short", confirmPassword: "short" }]],
    ["settings user name", changeUserNameSchema(messages), [{ intent: "username" }, { intent: "username", userName: long(255), currentPassword: long(1025) }]],
    ["dispute", disputeSchema(messages), [{}, { disputeComment: "  " }, { disputeComment: long(1001) }, { disputeComment: "line\nline\t" }, { disputeComment: "a\u0000" }]],
  ];
  it.each(cases)("%s", (_name, schema, posts) => {
    for (const post of posts) {
      const server = parseWithZod(form(post), { schema });
      const browser = parseSubmission(form(post), schema);
      expect(browser.status, JSON.stringify(post)).toBe(server.status);
      expect(browser.reply().error, JSON.stringify(post)).toEqual(server.reply().error);
      if (server.status === "success" && browser.status === "success") expect(browser.value).toEqual(server.value);
    }
  });

  it("no check falls back to zod's generic message (zod/mini loads no locale)", () => {
    for (const [, schema, posts] of cases) {
      for (const post of posts) {
        const error = parseSubmission(form(post), schema).reply().error ?? {};
        for (const list of Object.values(error)) for (const message of list ?? []) expect(Object.values(messages), message).toContain(message);
      }
    }
  });
});

describe("modules the browser loads never import classic zod (it does not tree-shake)", () => {
  it("app/ outside app/server and *.server.ts imports zod only as zod/mini or zod/v4/core", () => {
    const appDir = path.resolve(import.meta.dirname, "../../app");
    const offenders = readdirSync(appDir, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith("server") && !file.includes(".server."))
      .filter((file) => /from\s+["'](zod|zod\/v4|@conform-to\/zod[^"']*)["']/.test(readFileSync(path.join(appDir, file), "utf8").replace(/^import type .*$/gm, "")))
      .filter((file) => !/^routes\//.test(file) || /from\s+["'](zod|zod\/v4)["']/.test(readFileSync(path.join(appDir, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});

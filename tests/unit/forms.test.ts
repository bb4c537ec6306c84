import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { linkParameters, registrationSchema, resetPasswordSchema } from "../../app/forms/account";
import { isValidPassword } from "../../app/forms/password";
import { changePasswordSchema } from "../../app/forms/settings";
import { messages } from "../../app/messages";

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
}

function errors(values: Record<string, string>) {
  const submission = parseWithZod(form(values), { schema: registrationSchema });
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
}

describe("docs/product.md §5 password rule", () => {
  it.each(["Window#2026a", "aB3$efgh", "ZZzz11!!"])("accepts %s", (p) => expect(isValidPassword(p)).toBe(true));
  it.each(["Ab1!", "abcdefg1!", "ABCDEFG1!", "Abcdefgh!", "Abcdefgh1", "Abcdefg1(", "A".repeat(130) + "a1!"])(
    "rejects %s",
    (p) => expect(isValidPassword(p)).toBe(false),
  );
});

describe("registration schema (docs/product.md §5)", () => {
  const valid = { email: "a@example.com", password: "Window#2026a", confirmPassword: "Window#2026a", acceptTerms: "on", acceptPrivacy: "on" };

  it("accepts a complete form", () => {
    expect(parseWithZod(form(valid), { schema: registrationSchema }).status).toBe("success");
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
});

describe("reset password schema", () => {
  it("requires the confirmation to match", () => {
    const submission = parseWithZod(form({ newPassword: "Window#2026a", confirmPassword: "Window#2026b" }), { schema: resetPasswordSchema });
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.confirmPassword).toEqual([messages.passwordsDoNotMatch]);
  });
});

describe("settings password change schema (docs/product.md §5)", () => {
  const valid = { intent: "password", currentPassword: "Window#2026a", newPassword: "Better!Pass77", confirmPassword: "Better!Pass77" };
  const errorsOf = (change: Record<string, string>) => {
    const submission = parseWithZod(form({ ...valid, ...change }), { schema: changePasswordSchema });
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

describe("linkParameters (docs/product.md §5 confirm account)", () => {
  it("names the first missing parameter", () => {
    expect(linkParameters(new URL("http://h/x"))).toEqual({ problem: messages.missingEmailParameter });
    expect(linkParameters(new URL("http://h/x?email=a%40b.c"))).toEqual({ problem: messages.missingTokenParameter });
    expect(linkParameters(new URL("http://h/x?email=a%40b.c&token=t"))).toEqual({ email: "a@b.c", token: "t" });
  });
});

describe("control characters (docs/security.md Input)", () => {
  const fieldErrors = (schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string>) => {
    const submission = parseWithZod(form(values), { schema });
    return submission.status === "success" ? {} : (submission.reply().error ?? {});
  };

  it.each(["\u0000", "\u0007", "\u001b", "\u007f", "\n", "\t"])("a single-line field refuses U+%s with the field's message", async (c) => {
    const { loginSchema } = await import("../../app/forms/account");
    expect(fieldErrors(loginSchema, { email: `a${c}@example.com`, password: "x" }).email).toEqual([messages.controlCharacters]);
    expect(fieldErrors(loginSchema, { email: "a@example.com", password: `pass${c}word` }).password).toEqual([messages.controlCharacters]);
    expect(errors({ email: "a@example.com", password: `Window#2026a${c}`, confirmPassword: `Window#2026a${c}`, acceptTerms: "on", acceptPrivacy: "on" }).password).toContain(messages.controlCharacters);
  });

  it("the dispute comment keeps tab, CR and LF, and refuses NUL", async () => {
    const { disputeSchema } = await import("../../app/forms/dispute");
    expect(fieldErrors(disputeSchema, { disputeComment: "Line one\r\n\tline two" })).toEqual({});
    expect(fieldErrors(disputeSchema, { disputeComment: "typo\u0000" }).disputeComment).toEqual([messages.controlCharacters]);
  });

  it("profile names refuse a NUL", async () => {
    const { yourInfoSchema } = await import("../../app/forms/profile");
    expect(fieldErrors(yourInfoSchema, { firstName: "Gr\u0000ace", lastName: "Hopper", dob: "12/09/1986", postalCode: "10001" }).firstName).toEqual([messages.controlCharacters]);
  });
});

// The form schemas' messages in the request's language (docs/architecture/behaviour.md §4 "Language"):
// each schema of app/forms is a function of its words; the action passes the request's catalogue,
// the loader sends the form's words for the browser's checks.
import { parseWithZod } from "@conform-to/zod/v4";
import { createCookie, RouterContextProvider, type MiddlewareFunction } from "react-router";
import { describe, expect, it } from "vitest";
import type { $ZodType } from "zod/v4/core";
import * as account from "../../app/forms/account";
import * as dispute from "../../app/forms/dispute";
import * as link from "../../app/forms/link";
import { parseSubmission } from "../../app/forms/parse";
import * as profile from "../../app/forms/profile";
import * as review from "../../app/forms/review";
import * as search from "../../app/forms/search";
import * as settings from "../../app/forms/settings";
import * as venue from "../../app/forms/venue";
import { formWords } from "../../app/forms/words";
import * as en from "../../app/messages";
import * as es from "../../app/messages/es";
import type { Messages } from "../../app/messages/catalogues";
import { createAttemptLimits } from "../../app/server/attempt-limits.server";
import { attemptRefused } from "../../app/server/attempts.server";
import { requestContext } from "../../app/server/context";
import { createLanguageNegotiation, messagesOf, requestLanguageContext } from "../../app/server/i18n.server";

type Schema = $ZodType<Record<string, unknown>, Record<string, unknown>>;
type Key = keyof Messages;

/** Words whose every entry is its own key: the errors a schema gives with them name the entries it used. */
const keyWords = new Proxy({}, { get: (_, key) => key }) as Messages;

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
}

/** The errors of a post by field, as the action's reply carries them (the server's parse). */
function serverErrors(schema: Schema, post: Record<string, string>): Record<string, string[] | null | undefined> {
  const submission = parseWithZod(form(post), { schema });
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
}

/** `errors` with each message (a key of the catalogue) replaced by that entry of `words`. */
function worded(errors: Record<string, string[] | null | undefined>, words: Messages) {
  return Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, (list ?? []).map((key) => words[key as Key] as string)]));
}

const long = (n: number) => "a".repeat(n);

// Every form schema with its word keys and posts that break its checks.
const forms: [string, (words: Messages) => Schema, readonly Key[], Record<string, string>[]][] = [
  ["login", account.loginSchema, account.loginWordKeys, [{}, { email: long(300), password: long(1100) }, { email: "a\u0000b", password: "p", redirectTo: long(3000) }]],
  ["registration", account.registrationSchema, account.registrationWordKeys, [{}, { email: "nope", password: "Ab1!", confirmPassword: "x" }, { email: "a@b.co", password: "abcdefgh1", confirmPassword: "abcdefgh1" }, { email: "a\u0007@b.co", password: "Window#2026a\u0000", confirmPassword: "y" }]],
  ["confirm account", account.confirmAccountSchema, account.confirmAccountWordKeys, [{}, { password: "abcdefgh1" }, { password: "Ab1!" }]],
  ["request password change", account.requestPasswordChangeSchema, account.requestPasswordChangeWordKeys, [{}, { email: "nope" }, { email: long(255) }]],
  ["reset password", account.resetPasswordSchema, account.resetPasswordWordKeys, [{}, { newPassword: "Window#2026a", confirmPassword: "Window#2026b" }, { newPassword: "short" }]],
  ["your info", profile.yourInfoSchema, profile.yourInfoWordKeys, [{}, { firstName: long(101), lastName: "B\u0000", dob: "13/40/1990", postalCode: "!" }, { firstName: "A", lastName: "B", dob: "01/01/2020", postalCode: "12345" }]],
  ["personal info", profile.personalInfoSchema, profile.personalInfoWordKeys, [{}, { firstName: "A", lastName: "B", dob: "1980-01-01", postalCode: long(13) }]],
  ["settings password", settings.changePasswordSchema, settings.changePasswordWordKeys, [{ intent: "password" }, { intent: "password", currentPassword: long(1025), newPassword: "short", confirmPassword: "other" }]],
  ["settings user name", settings.changeUserNameSchema, settings.changeUserNameWordKeys, [{ intent: "username" }, { intent: "username", userName: long(255), currentPassword: "p\u0000" }]],
  ["delete account", settings.deleteAccountSchema, settings.deleteAccountWordKeys, [{ intent: "deleteAccount" }]],
  ["dispute", dispute.disputeSchema, dispute.disputeWordKeys, [{}, { disputeComment: long(1001) }, { disputeComment: "a\u0000" }]],
  ["review", review.reviewSchema, review.reviewWordKeys, [{}, { decision: "maybe", responseComment: long(1001) }]],
  ["result link", link.resultLinkSchema, link.resultLinkWordKeys, [{}, { url: long(2049) }]],
  ["people search", search.peopleSearchSchema, search.peopleSearchWordKeys, [{ q: "a b" }, { q: "ab\u0007c" }]],
  ["ZIP search", search.zipSearchSchema, search.zipSearchWordKeys, [{ zip: "123" }]],
  ["check-in code", venue.checkinCodeSchema, venue.checkinCodeWordKeys, [{ code: "ab3-d9e-x" }]],
];

describe("each form schema speaks the words it is given (app/forms/words.ts)", () => {
  it.each(forms)("%s: every message is an entry of the words, English as before and Spanish for Spanish", (_name, schema, keys, posts) => {
    for (const post of posts) {
      const keysUsed = serverErrors(schema(keyWords), post);
      expect(Object.keys(keysUsed).length, JSON.stringify(post)).toBeGreaterThan(0);
      for (const list of Object.values(keysUsed)) for (const key of list ?? []) expect(keys, `${key} is among the form's word keys`).toContain(key);
      expect(serverErrors(schema(en), post), JSON.stringify(post)).toEqual(worded(keysUsed, en));
      const spanish = serverErrors(schema(es), post);
      expect(spanish, JSON.stringify(post)).toEqual(worded(keysUsed, es));
      for (const list of Object.values(spanish)) for (const message of list ?? []) expect(Object.values(en), message).not.toContain(message);
    }
  });

  it.each(forms)("%s: the browser, given the loader's words, says what the server says in Spanish", (_name, schema, keys, posts) => {
    const sent = JSON.parse(JSON.stringify(formWords(es, keys))) as Messages;
    for (const post of posts) {
      const browser = parseSubmission(form(post), schema(sent));
      const server = parseWithZod(form(post), { schema: schema(es) });
      expect(browser.reply().error, JSON.stringify(post)).toEqual(server.reply().error);
    }
  });

  it("gives each catalogue's words for a form once: the same frozen object, exactly the form's entries", () => {
    const words = formWords(es, account.loginWordKeys);
    expect(formWords(es, account.loginWordKeys)).toBe(words);
    expect(Object.isFrozen(words)).toBe(true);
    expect(words).toEqual(Object.fromEntries(account.loginWordKeys.map((key) => [key, es[key]])));
    expect(formWords(en, account.loginWordKeys)).not.toBe(words);
    expect(formWords(en, account.loginWordKeys)).toEqual(Object.fromEntries(account.loginWordKeys.map((key) => [key, en[key]])));
    expect(Object.keys(formWords(es, account.registrationWordKeys)).sort()).toEqual([...new Set(account.registrationWordKeys)].sort());
  });

  it("builds one schema per words object, so the constraints and checks of a language are made once", () => {
    expect(account.loginSchema(es)).toBe(account.loginSchema(es));
    expect(account.loginSchema(es)).not.toBe(account.loginSchema(en));
  });

  it("the venue fields word their own checks with the words given", async () => {
    const z = await import("zod/mini");
    expect(z.safeParse(venue.phoneField(es), "555-0123").error?.issues[0]?.message).toBe(es.phoneInvalid);
    expect(z.safeParse(venue.phoneField(es), "").error?.issues[0]?.message).toBe(es.phoneRequired);
    expect(z.safeParse(venue.timeField(es, "x"), "7:05").error?.issues[0]?.message).toBe(es.timeInvalid);
    expect(z.safeParse(venue.dob21Field(es, es.dobRequired, es.dobFormat), "01/01/2020").error?.issues[0]?.message).toBe(es.under21);
    expect(z.safeParse(venue.requiredField(es, "x"), "a\u0000").error?.issues[0]?.message).toBe(es.controlCharacters);
  });

  it("linkParameters names the missing parameter in the words' language", () => {
    expect(account.linkParameters(new URL("http://h/x"), es)).toEqual({ problem: es.missingEmailParameter });
    expect(account.linkParameters(new URL("http://h/x?email=a%40b.c"), es)).toEqual({ problem: es.missingTokenParameter });
    expect(es.missingEmailParameter).not.toBe(en.missingEmailParameter);
  });
});

describe("a loader sends its form's words in the request's language", () => {
  const cookie = createCookie("sw_lang", { path: "/", sameSite: "lax", httpOnly: true });

  /** Runs `loader` behind a negotiation that offers Spanish too, for a browser that asks for `acceptLanguage`. */
  async function load<T>(path: string, acceptLanguage: string, loader: (args: never) => T | Promise<T>) {
    const negotiation = createLanguageNegotiation(["en", "es"], () => cookie);
    const context = new RouterContextProvider();
    const request = new Request(`http://localhost${path}`, { headers: { "accept-language": acceptLanguage } });
    let loaded: T | undefined;
    const args = { request, context, params: {}, unstable_pattern: path } as unknown as Parameters<MiddlewareFunction<Response>>[0];
    await negotiation.middleware(args, async () => {
      loaded = await loader({ request, context, params: {} } as never);
      return new Response("ok");
    });
    expect(messagesOf(context)).toBe(acceptLanguage.startsWith("es") ? es : en);
    return loaded as T;
  }

  it("Create Account: the registration checks' words, only those, in Spanish for a Spanish browser", async () => {
    const { loader } = await import("../../app/routes/registration");
    const spanish = await load("/registration", "es-US,es;q=0.9", loader);
    expect(spanish.text.form).toEqual(formWords(es, account.registrationWordKeys));
    expect(Object.keys(spanish.text.form).sort()).toEqual([...new Set(account.registrationWordKeys)].sort());
    expect(spanish.text.form.registerEmailRequired).toBe(es.registerEmailRequired);
    const english = await load("/registration", "en-US", loader);
    expect(english.text.form.registerEmailRequired).toBe(en.registerEmailRequired);
  });

  it("Set Password: the link's problem and the form's words in Spanish", async () => {
    const { loader } = await import("../../app/routes/confirmaccount");
    const loaded = await load("/confirmaccount?email=a%40b.c", "es", loader);
    expect(loaded.problem).toBe(es.missingTokenParameter);
    expect(loaded.text.form).toEqual(formWords(es, account.confirmAccountWordKeys));
  });

  it("Reset Password request: the form's words in Spanish", async () => {
    const { loader } = await import("../../app/routes/requestpasswordchange");
    const loaded = await load("/requestpasswordchange", "es-MX", loader);
    expect(loaded.text.form).toEqual({ resetEmailRequired: es.resetEmailRequired, emailInvalid: es.emailInvalid, controlCharacters: es.controlCharacters });
  });
});

describe("a form's answer past the attempt limits (app/server/attempts.server.ts)", () => {
  it("is in the request's language", async () => {
    const log = { info() {}, warn() {}, error() {}, debug() {}, child: () => log };
    const context = new RouterContextProvider();
    context.set(requestContext, { nonce: "n", requestId: "r", log: log as never, clientIp: "198.51.100.20", sessions: undefined as never, attemptLimits: createAttemptLimits(), readQrPhoto: undefined as never, draining: new AbortController().signal });
    context.set(requestLanguageContext, "es");
    let refused: Awaited<ReturnType<typeof attemptRefused>>;
    // docs/security/limits.md "Limits": five mails an hour to one address; the sixth is refused.
    for (let i = 0; i < 6 && !refused; i++) refused = await attemptRefused(context, "mail", "a@example.com");
    expect(refused?.init.status).toBe(429);
    // The wait is up to the hour's window, in whole minutes.
    const minutes = Array.from({ length: 60 }, (_, i) => i + 1);
    expect(minutes.map((m) => es.tooManyAttempts(m))).toContain(refused?.message);
    expect(minutes.map((m) => en.tooManyAttempts(m))).not.toContain(refused?.message);
  });
});

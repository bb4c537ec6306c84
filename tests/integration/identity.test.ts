// The reference identity authority over real HTTP (docs/product/calls.md §7 identity table, §5 password rule):
// one service on an ephemeral port with a fresh PGlite data dir, mails read from its outbox.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SignJWT, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify } from "jose";
import { pino } from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactUrl } from "../../lib/redact.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { contractFetch, lineSink } from "./support.ts";

const PUBLIC_URL = "http://localhost:3000";
const CLIENT = { clientId: "safewindow-web", clientSecret: "test-secret-0123456789abcdef" };

let service: IdentityService;
let base: string;
let dataDir: string;
let clockOffsetMs = 0;
const logLines: string[] = [];
/** Every password and token value used below; none may appear in a log line. */
const secrets = new Set<string>();

let counter = 0;
function newEmail(tag: string): string {
  counter += 1;
  return `${tag}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}
function newPassword(): string {
  const pw = `Sw!${Math.random().toString(36).slice(2, 10)}x9Z`;
  secrets.add(pw);
  return pw;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-test-"));
  service = await startIdentityService({
    dataDir,
    publicUrl: PUBLIC_URL,
    clients: [CLIENT],
    logger: pino({ level: "debug" }, lineSink(logLines)),
    now: () => new Date(Date.now() + clockOffsetMs),
  });
  base = service.url;
});

afterAll(async () => {
  await service?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- helpers

async function postForm(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return contractFetch(`${base}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function clientToken(): Promise<string> {
  const res = await postForm({ grant_type: "client_credentials", scope: "identity.api", client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string };
  secrets.add(body.access_token);
  return body.access_token;
}

async function passwordGrant(username: string, password: string, scope?: string): Promise<Response> {
  return postForm({
    grant_type: "password",
    username,
    password,
    client_id: CLIENT.clientId,
    client_secret: CLIENT.clientSecret,
    ...(scope ? { scope } : {}),
  });
}

async function userToken(username: string, password: string): Promise<string> {
  const res = await passwordGrant(username, password);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string };
  secrets.add(body.access_token);
  return body.access_token;
}

async function call(pathAndQuery: string, token: string | null, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  return contractFetch(`${base}${pathAndQuery}`, { ...init, headers });
}

async function asClient(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  return call(pathAndQuery, await clientToken(), init);
}

function qs(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

async function register(userName: string, password: string): Promise<Response> {
  return asClient("/api/account/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userName, password }),
  });
}

async function registered(): Promise<{ email: string; password: string }> {
  const email = newEmail("user");
  const password = newPassword();
  const res = await register(email, password);
  expect(res.status).toBe(200);
  return { email, password };
}

const outbox = () => path.join(dataDir, "outbox");
async function outboxFiles(): Promise<string[]> {
  try {
    return (await readdir(outbox())).filter((f) => f.endsWith(".eml")).sort();
  } catch {
    return [];
  }
}

interface SentMail {
  to: string;
  subject: string;
  text: string;
  /** The first link of the text; null for a notice without one (an e-mail change notice). */
  link: URL | null;
}

/** A mail with a link (a link mail): the one `oneMail` answers. */
type LinkedMail = SentMail & { link: URL };

/** Runs `action` and returns the mails it wrote to the outbox. */
async function mailsFrom(action: () => Promise<unknown>): Promise<SentMail[]> {
  const before = new Set(await outboxFiles());
  await action();
  const fresh = (await outboxFiles()).filter((f) => !before.has(f));
  const mails: SentMail[] = [];
  for (const file of fresh) {
    const email = await PostalMime.parse(await readFile(path.join(outbox(), file)));
    const text = email.text ?? "";
    const href = /https?:\/\/\S+/.exec(text)?.[0];
    const link = href === undefined ? null : new URL(href);
    const token = link?.searchParams.get("token");
    if (token) secrets.add(token);
    mails.push({ to: email.to?.[0] && "address" in email.to[0] ? (email.to[0].address ?? "") : "", subject: email.subject ?? "", text, link });
  }
  return mails;
}

/** The one mail `action` wrote, which has a link. */
async function oneMail(action: () => Promise<unknown>): Promise<LinkedMail> {
  const mails = await mailsFrom(action);
  expect(mails).toHaveLength(1);
  expect(mails[0]?.link, "mail has a link").toBeInstanceOf(URL);
  return mails[0] as LinkedMail;
}

/**
 * Runs `action`, a reset request for `email`, and returns the mails it led to: the request path
 * only queues the request, so this waits (10 s at most) until the sender has handled it and
 * sent what it queued for it.
 */
async function mailsFromResetRequest(email: string, action: () => Promise<unknown>): Promise<SentMail[]> {
  return mailsFrom(async () => {
    await action();
    await outboxSettled(email, ["reset_request", "reset_password"], `the reset request for ${email} was not handled`);
  });
}

/**
 * Waits (10 s at most) until no mail of `kinds` to `email` is pending in the identity outbox.
 * @throws Error(`failure`) past that
 */
async function outboxSettled(email: string, kinds: string[], failure: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const waiting = await service.db
      .selectFrom("identity_outbox")
      .select("id")
      .where("status", "=", "pending")
      .where("kind", "in", kinds as never[])
      .where("recipient", "=", email.toLowerCase())
      .execute();
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * `action`, a sendconfirmationemail call for `email`, then a wait (10 s at most) until the mail it
 * queued has been sent: the call answers before its mail goes out (services/identity/README.md
 * "Sending the confirmation mail"). For mailsFrom and oneMail.
 */
function confirmationSent(email: string, action: () => Promise<unknown>): () => Promise<void> {
  return async () => {
    await action();
    await outboxSettled(email, ["confirm_email"], `the confirmation mail to ${email} was not sent`);
  };
}

/** The one mail a reset request for `email` led to (see mailsFromResetRequest). */
async function resetMail(email: string, action: () => Promise<unknown>): Promise<LinkedMail> {
  const mails = await mailsFromResetRequest(email, action);
  expect(mails).toHaveLength(1);
  expect(mails[0]?.link, "mail has a link").toBeInstanceOf(URL);
  return mails[0] as LinkedMail;
}

function linkParams(mail: LinkedMail): { email: string; token: string } {
  return { email: mail.link.searchParams.get("email") ?? "", token: mail.link.searchParams.get("token") ?? "" };
}

async function withClock<T>(offsetMs: number, fn: () => Promise<T>): Promise<T> {
  clockOffsetMs = offsetMs;
  try {
    return await fn();
  } finally {
    clockOffsetMs = 0;
  }
}

// ---------------------------------------------------------------- discovery and tokens

describe("token endpoint and keys", () => {
  it("publishes discovery and a JWKS", async () => {
    const conf = (await (await contractFetch(`${base}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(conf.issuer).toBe(`${PUBLIC_URL}/identity`); // the configured issuer, not the listening URL
    expect(conf.token_endpoint).toBe(`${base}/connect/token`);
    expect(conf.jwks_uri).toBe(`${base}/.well-known/jwks.json`);
    const jwks = (await (await contractFetch(conf.jwks_uri as string)).json()) as { keys: { kid?: string; alg?: string; d?: string }[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]?.kid).toBeTruthy();
    expect(jwks.keys[0]?.alg).toBe("RS256");
    expect(jwks.keys[0]?.d).toBeUndefined(); // public only
  });

  it("issues a client_credentials token that verifies against the JWKS", async () => {
    const res = await postForm({ grant_type: "client_credentials", scope: "identity.api", client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "identity.api" });
    const token = body.access_token as string;
    secrets.add(token);
    const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`)), {
      issuer: service.issuer,
      audience: "identity.api",
    });
    expect(protectedHeader.alg).toBe("RS256");
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload.sub).toBeUndefined();
    expect(payload.client_id).toBe(CLIENT.clientId);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
  });

  it("accepts HTTP Basic client authentication", async () => {
    const basic = Buffer.from(`${encodeURIComponent(CLIENT.clientId)}:${encodeURIComponent(CLIENT.clientSecret)}`).toString("base64");
    const res = await postForm({ grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { scope: string }).scope).toBe("identity.api");
  });

  it("rejects a bad client with 401 invalid_client", async () => {
    const attempts: Record<string, string>[] = [
      { grant_type: "client_credentials", client_id: CLIENT.clientId, client_secret: "wrong-secret" },
      { grant_type: "client_credentials", client_id: "someone-else", client_secret: CLIENT.clientSecret },
      { grant_type: "client_credentials" },
    ];
    for (const fields of attempts) {
      const res = await postForm(fields);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
    }
    const basic = Buffer.from(`${CLIENT.clientId}:nope`).toString("base64");
    const res = await postForm({ grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(401);
  });

  it("rejects unsupported grants, unknown scopes and non-form bodies", async () => {
    const auth = { client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret };
    let res = await postForm({ grant_type: "authorization_code", code: "x", ...auth });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("unsupported_grant_type");
    res = await postForm({ grant_type: "client_credentials", scope: "consumer.api", ...auth });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_scope");
    res = await contractFetch(`${base}/connect/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "client_credentials", ...auth }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("issues a user token for the password grant; wrong password or unknown user is invalid_grant", async () => {
    const { email, password } = await registered();
    const res = await passwordGrant(email.toUpperCase(), password);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_in: number; scope: string; token_type: string };
    secrets.add(body.access_token);
    expect(body.token_type).toBe("Bearer");
    expect(body.expires_in).toBe(3600);
    expect(body.scope.split(" ").sort()).toEqual(["business.api", "consumer.api", "identity.user", "openid", "profile"]);
    const { payload } = await jwtVerify(body.access_token, createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`)), { issuer: service.issuer });
    expect(payload.email).toBe(email);
    expect(payload.email_verified).toBe(false); // unconfirmed users may still log in
    expect(payload.aud).toEqual(expect.arrayContaining(["consumer.api", "identity.api"]));
    const users = (await (await call("/api/users/", body.access_token)).json()) as { id: string };
    expect(payload.sub).toBe(users.id);

    const narrow = await passwordGrant(email, password, "openid consumer.api");
    expect(narrow.status).toBe(200);
    const narrowToken = ((await narrow.json()) as { access_token: string }).access_token;
    secrets.add(narrowToken);
    expect(decodeJwt(narrowToken).aud).toEqual(["consumer.api"]);

    for (const [user, pw] of [
      [email, `${password}x`],
      [newEmail("nobody"), password],
    ] as const) {
      const bad = await passwordGrant(user, pw);
      expect(bad.status).toBe(400);
      const err = (await bad.json()) as { error: string; error_description: string };
      expect(err.error).toBe("invalid_grant");
      expect(err.error_description).toBeTruthy();
    }
    const badScope = await passwordGrant(email, password, "identity.api");
    expect(badScope.status).toBe(400);
    expect(((await badScope.json()) as { error: string }).error).toBe("invalid_scope");
  });

  it("rate-limits repeated failures per username with an OAuth-style 429", async () => {
    const { email, password } = await registered();
    for (let i = 0; i < 20; i += 1) {
      const res = await passwordGrant(email, "Wrong!pass1");
      expect(res.status).toBe(400);
    }
    const limited = await passwordGrant(email, password);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: string }).error).toBe("too_many_requests");
    // When to try again: the seconds left of the 15-minute window.
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(800);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(900);
    // Another username from the same address is not affected.
    const other = await registered();
    expect((await passwordGrant(other.email, other.password)).status).toBe(200);
  });

  it("counts failures per end user's address as the client states it, so one browser cannot lock out another", async () => {
    const { email, password } = await registered();
    const fields = (pw: string) => ({ grant_type: "password", username: email, password: pw, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
    for (let i = 0; i < 20; i += 1) {
      expect((await postForm(fields("Wrong!pass1"), { "x-forwarded-for": "203.0.113.7" })).status).toBe(400);
    }
    expect((await postForm(fields(password), { "x-forwarded-for": "203.0.113.7" })).status).toBe(429);
    // The account's owner, signing in through the same web app from elsewhere, is not locked out.
    expect((await postForm(fields(password), { "x-forwarded-for": "198.51.100.20" })).status).toBe(200);
  });

  it("counts an IPv6 end user by its /64: hopping within the network does not start a fresh count, another network signs in", async () => {
    const { email, password } = await registered();
    const fields = (pw: string) => ({ grant_type: "password", username: email, password: pw, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
    for (let i = 0; i < 20; i += 1) {
      expect((await postForm(fields("Wrong!pass1"), { "x-forwarded-for": `2001:db8:9:9::${(i + 1).toString(16)}` })).status).toBe(400);
    }
    expect((await postForm(fields(password), { "x-forwarded-for": "2001:db8:9:9:ffff::1" })).status).toBe(429);
    expect((await postForm(fields(password), { "x-forwarded-for": "2001:db8:9:a::1" })).status).toBe(200);
  });
});

// ---------------------------------------------------------------- registration

describe("register, isavailable, validaterequestedemail", () => {
  it("registers an account", async () => {
    const res = await register(newEmail("reg"), newPassword());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ succeeded: true, errors: [] });
  });

  it.each([
    ["Ab1!xyz", "PasswordTooShort"],
    ["ABCDEFG1!", "PasswordRequiresLower"],
    ["abcdefg1!", "PasswordRequiresUpper"],
    ["Abcdefgh!", "PasswordRequiresDigit"],
    ["Abcdefg12", "PasswordRequiresNonAlphanumeric"],
    ["Abcdefg1~", "PasswordRequiresNonAlphanumeric"], // '~' is not one of docs/product/data.md §5's !@#$%^&*
    [`Aa1!${"x".repeat(125)}`, "PasswordTooLong"],
  ])("rejects %j with %s", async (password, code) => {
    const email = newEmail("rule");
    const res = await register(email, password);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { succeeded: boolean; errors: { code: string; description: string }[] };
    expect(body.succeeded).toBe(false);
    expect(body.errors.map((e) => e.code)).toEqual([code]);
    expect(body.errors[0]?.description).toBeTruthy();
    expect(await (await asClient(`/api/account/isavailable?${qs({ email })}`)).json()).toBe(true);
  });

  it("lists every failing rule at once, and InvalidEmail", async () => {
    const res = await register("not-an-address", "");
    expect(res.status).toBe(400);
    const codes = ((await res.json()) as { errors: { code: string }[] }).errors.map((e) => e.code).sort();
    expect(codes).toEqual(
      ["InvalidEmail", "PasswordRequiresDigit", "PasswordRequiresLower", "PasswordRequiresNonAlphanumeric", "PasswordRequiresUpper", "PasswordTooShort"].sort(),
    );
  });

  it("treats user names case-insensitively: DuplicateUserName and isavailable false", async () => {
    const email = newEmail("Case");
    expect((await register(email, newPassword())).status).toBe(200);
    const again = await register(`  ${email.toUpperCase()} `, newPassword());
    expect(again.status).toBe(400);
    expect(((await again.json()) as { errors: { code: string }[] }).errors.map((e) => e.code)).toEqual(["DuplicateUserName"]);
    expect(await (await asClient(`/api/account/isavailable?${qs({ email: email.toUpperCase() })}`)).json()).toBe(false);
    expect(await (await asClient(`/api/account/isavailable?${qs({ email: newEmail("free") })}`)).json()).toBe(true);
  });

  it("answers validaterequestedemail with {available, valid}", async () => {
    const { email } = await registered();
    const ask = async (e: string) => (await asClient(`/api/account/validaterequestedemail?${qs({ email: e })}`)).json();
    expect(await ask(newEmail("fresh"))).toEqual({ available: true, valid: true });
    expect(await ask(email)).toEqual({ available: false, valid: true });
    expect(await ask("two@@example.com")).toEqual({ available: true, valid: false });
  });
});

// ---------------------------------------------------------------- e-mail confirmation

describe("e-mail confirmation", () => {
  it("mails a confirmation link, confirms once, rejects reuse", async () => {
    const { email, password } = await registered();
    const user = await userToken(email, password);
    expect(await (await call("/api/account/isemailconfirmed", user)).json()).toBe(false);

    const mail = await oneMail(
      confirmationSent(email, async () => {
        const res = await asClient(`/api/account/sendconfirmationemail?${qs({ email, applicationContext: "SafeWindow", requestedUri: "" })}`);
        expect(res.status).toBe(200);
        expect(await res.json()).toBe(true);
      }),
    );
    expect(mail.to).toBe(email);
    expect(`${mail.link.origin}${mail.link.pathname}`).toBe(`${PUBLIC_URL}/confirmemail`);
    const { email: linkEmail, token } = linkParams(mail);
    expect(linkEmail).toBe(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url

    const ok = await asClient(`/api/account/confirmemail?${qs({ email: linkEmail, token })}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { succeeded: boolean }).succeeded).toBe(true);
    expect(await (await call("/api/account/isemailconfirmed", user)).json()).toBe(true);

    const reuse = await asClient(`/api/account/confirmemail?${qs({ email: linkEmail, token })}`);
    expect(reuse.status).toBe(400);
    const body = (await reuse.json()) as { succeeded: boolean; errors: { code: string }[] };
    expect(body.succeeded).toBe(false);
    expect(body.errors[0]?.code).toBe("InvalidToken");

    // Already confirmed, or unknown: still true, and no mail.
    const ghost = newEmail("ghost");
    const none = await mailsFrom(async () => {
      await confirmationSent(email, async () => expect(await (await asClient(`/api/account/sendconfirmationemail?${qs({ email })}`)).json()).toBe(true))();
      await confirmationSent(ghost, async () => expect(await (await asClient(`/api/account/sendconfirmationemail?${qs({ email: ghost })}`)).json()).toBe(true))();
    });
    expect(none).toHaveLength(0);
  });

  it("rejects a wrong token and a superseded one", async () => {
    const { email } = await registered();
    const first = await oneMail(confirmationSent(email, () => asClient(`/api/account/sendconfirmationemail?${qs({ email })}`)));
    const second = await oneMail(confirmationSent(email, () => asClient(`/api/account/sendconfirmationemail?${qs({ email })}`)));
    const wrong = await asClient(`/api/account/confirmemail?${qs({ email, token: "A".repeat(43) })}`);
    expect(wrong.status).toBe(400);
    const old = await asClient(`/api/account/confirmemail?${qs(linkParams(first))}`);
    expect(old.status).toBe(400);
    const current = await asClient(`/api/account/confirmemail?${qs(linkParams(second))}`);
    expect(current.status).toBe(200);
  });

  it("rejects a confirmation token after 24 hours", async () => {
    const { email } = await registered();
    const mail = await oneMail(confirmationSent(email, () => asClient(`/api/account/sendconfirmationemail?${qs({ email })}`)));
    const res = await withClock(24 * 3600_000 + 60_000, () => asClient(`/api/account/confirmemail?${qs(linkParams(mail))}`));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("InvalidToken");
    // Just before expiry it would have worked.
    const fresh = await oneMail(confirmationSent(email, () => asClient(`/api/account/sendconfirmationemail?${qs({ email })}`)));
    const ok = await withClock(23 * 3600_000, () => asClient(`/api/account/confirmemail?${qs(linkParams(fresh))}`));
    expect(ok.status).toBe(200);
  });

  it("uses requestedUri only when it stays inside the public URL", async () => {
    const { email } = await registered();
    const inside = await oneMail(
      confirmationSent(email, () => asClient(`/api/account/sendconfirmationemail?${qs({ email, requestedUri: `${PUBLIC_URL}/consumer/confirmemail?x=1#frag` })}`)),
    );
    expect(`${inside.link.origin}${inside.link.pathname}`).toBe(`${PUBLIC_URL}/consumer/confirmemail`);
    expect(inside.link.searchParams.get("x")).toBeNull();
    for (const requestedUri of [
      "https://evil.example/confirmemail",
      "http://localhost:3000.evil.example/confirmemail",
      "http://user:pw@localhost:3000/confirmemail",
      "javascript:alert(1)",
      "/confirmemail",
      `${PUBLIC_URL}/`,
    ]) {
      const mail = await oneMail(confirmationSent(email, () => asClient(`/api/account/sendconfirmationemail?${qs({ email, requestedUri })}`)));
      expect(`${mail.link.origin}${mail.link.pathname}`).toBe(`${PUBLIC_URL}/confirmemail`);
    }
  });
});

// ---------------------------------------------------------------- password reset

describe("password reset", () => {
  it("resets a password end to end", async () => {
    const { email, password } = await registered();
    const mail = await resetMail(email, async () => {
      const res = await asClient(`/api/account/requestpasswordchange?${qs({ email: email.toUpperCase(), applicationContext: "SafeWindow", requestedUri: "" })}`);
      expect(await res.json()).toBe(true);
    });
    expect(mail.to).toBe(email);
    expect(`${mail.link.origin}${mail.link.pathname}`).toBe(`${PUBLIC_URL}/resetpassword`);
    const { token } = linkParams(mail);

    const weak = await asClient(`/api/account/changepasswordusingtoken?${qs({ email, newPassword: "weakpassword", token })}`);
    expect(weak.status).toBe(400);
    const weakCodes = ((await weak.json()) as { errors: { code: string }[] }).errors.map((e) => e.code);
    expect(weakCodes).toEqual(expect.arrayContaining(["PasswordRequiresUpper", "PasswordRequiresDigit"]));

    const newPw = newPassword();
    const ok = await asClient(`/api/account/changepasswordusingtoken?${qs({ email, newPassword: newPw, token })}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ succeeded: true, errors: [] });

    const reuse = await asClient(`/api/account/changepasswordusingtoken?${qs({ email, newPassword: newPassword(), token })}`);
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("InvalidToken");

    expect((await passwordGrant(email, password)).status).toBe(400);
    expect((await passwordGrant(email, newPw)).status).toBe(200);
  });

  it("answers true for unknown addresses without sending anything", async () => {
    const ghost = newEmail("ghost");
    const mails = await mailsFromResetRequest(ghost, async () => {
      expect(await (await asClient(`/api/account/requestpasswordchange?${qs({ email: ghost })}`)).json()).toBe(true);
    });
    expect(mails).toHaveLength(0);
  });

  it("rejects a reset token after 1 hour", async () => {
    const { email } = await registered();
    const mail = await resetMail(email, () => asClient(`/api/account/requestpasswordchange?${qs({ email })}`));
    const res = await withClock(61 * 60_000, () =>
      asClient(`/api/account/changepasswordusingtoken?${qs({ email, newPassword: newPassword(), token: linkParams(mail).token })}`),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("InvalidToken");
  });
});

// ---------------------------------------------------------------- invitation

describe("invite and confirmaccount", () => {
  it("invites an account without a password, which the link then sets", async () => {
    const email = newEmail("invitee");
    const mail = await oneMail(async () => {
      const res = await asClient("/api/account/invite", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: email }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ succeeded: true, errors: [] });
    });
    expect(`${mail.link.origin}${mail.link.pathname}`).toBe(`${PUBLIC_URL}/confirmaccount`);
    expect(await (await asClient(`/api/account/isavailable?${qs({ email })}`)).json()).toBe(false);

    // No password yet: nothing logs in.
    const noPw = await passwordGrant(email, "Anything1!");
    expect(noPw.status).toBe(400);
    expect(((await noPw.json()) as { error: string }).error).toBe("invalid_grant");

    const { token } = linkParams(mail);
    const weak = await asClient(`/api/account/confirmaccount?${qs({ email, password: "short", token })}`);
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as { errors: { code: string }[] }).errors.map((e) => e.code)).toContain("PasswordTooShort");

    const bad = await asClient(`/api/account/confirmaccount?${qs({ email, password: newPassword(), token: "B".repeat(43) })}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("InvalidToken");

    const pw = newPassword();
    const ok = await asClient(`/api/account/confirmaccount?${qs({ email, password: pw, token })}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { succeeded: boolean }).succeeded).toBe(true);

    const user = await userToken(email, pw);
    expect(await (await call("/api/account/isemailconfirmed", user)).json()).toBe(true);

    const again = await asClient("/api/account/invite", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: email }) });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("UserAlreadyHasPassword");
  });
});

// ---------------------------------------------------------------- user-token calls

describe("user-token calls", () => {
  it("GET /api/users/ returns the token's user", async () => {
    const { email, password } = await registered();
    const token = await userToken(email, password);
    const res = await call("/api/users/", token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; userName: string; emailConfirmed: boolean };
    expect(body).toEqual({ id: decodeJwt(token).sub, userName: email, emailConfirmed: false });
  });

  it("changeusername: true for a valid free address (then unconfirmed, mailed, the old address told), false otherwise", async () => {
    const { email, password } = await registered();
    const taken = await registered();
    const token = await userToken(email, password);
    const change = (userName: string) => call(`/api/account/changeusername?${qs({ userName, applicationContext: "SafeWindow" })}`, token);

    const refused = await mailsFrom(async () => {
      expect(await (await change("not an address")).json()).toBe(false);
      expect(await (await change(taken.email.toUpperCase())).json()).toBe(false);
      expect(await (await change(email)).json()).toBe(false);
    });
    expect(refused).toHaveLength(0);

    const next = newEmail("renamed");
    const mails = await mailsFrom(async () => {
      const res = await change(next.toUpperCase());
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(true);
    });
    expect(mails.map((m) => m.to).sort()).toEqual([email, next].sort());
    const mail = mails.find((m) => m.to === next) as LinkedMail;
    expect(linkParams(mail).email).toBe(next);
    const notice = mails.find((m) => m.to === email) as SentMail;
    expect(notice.text).toContain(`changed from ${email} to ${next}`);
    expect(notice.link).toBeNull();
    expect(await (await call("/api/users/", token)).json()).toMatchObject({ userName: next, emailConfirmed: false });
    expect((await passwordGrant(email, password)).status).toBe(400);
    expect((await passwordGrant(next, password)).status).toBe(200);
    expect((await asClient(`/api/account/confirmemail?${qs(linkParams(mail))}`)).status).toBe(200);
  });

  it("changepasswordusingcurrent: false for a wrong current or weak new password, true otherwise", async () => {
    const { email, password } = await registered();
    const token = await userToken(email, password);
    const change = (currentPassword: string, newPassword: string) =>
      call(`/api/account/changepasswordusingcurrent?${qs({ currentPassword, newPassword, applicationContext: "SafeWindow" })}`, token);
    const next = newPassword();
    expect(await (await change(`${password}nope`, next)).json()).toBe(false);
    expect(await (await change(password, "alllowercase1!")).json()).toBe(false);
    const ok = await change(password, next);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toBe(true);
    expect((await passwordGrant(email, password)).status).toBe(400);
    expect((await passwordGrant(email, next)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- authorisation

describe("bearer tokens", () => {
  it("answers 401 JSON without a token, with garbage, a forged or an expired token", async () => {
    const noAuth = await call(`/api/account/isavailable?${qs({ email: "a@b.co" })}`, null);
    expect(noAuth.status).toBe(401);
    expect(((await noAuth.json()) as { error: string }).error).toBe("invalid_token");
    expect(noAuth.headers.get("www-authenticate")).toContain("Bearer");

    expect((await call("/api/users/", "not.a.jwt")).status).toBe(401);

    // Same claims and kid, signed with someone else's key.
    const real = await clientToken();
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT(decodeJwt(real)).setProtectedHeader({ ...decodeProtectedHeader(real), alg: "RS256" }).sign(privateKey);
    secrets.add(forged);
    expect((await call(`/api/account/isavailable?${qs({ email: "a@b.co" })}`, forged)).status).toBe(401);

    // alg "none"
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "at+jwt" })).toString("base64url")}.${real.split(".")[1]}.`;
    expect((await call(`/api/account/isavailable?${qs({ email: "a@b.co" })}`, unsigned)).status).toBe(401);

    const expired = await withClock(2 * 3600_000, () => call(`/api/account/isavailable?${qs({ email: "a@b.co" })}`, real));
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error_description: string }).error_description).toMatch(/expired/);
  });

  it("keeps client-only calls from user tokens and user calls from client tokens (403)", async () => {
    const { email, password } = await registered();
    const user = await userToken(email, password);
    const clientOnly: [string, RequestInit?][] = [
      ["/api/account/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: newEmail("x"), password: newPassword() }) }],
      [`/api/account/isavailable?${qs({ email })}`],
      [`/api/account/validaterequestedemail?${qs({ email })}`],
      [`/api/account/sendconfirmationemail?${qs({ email })}`],
      [`/api/account/requestpasswordchange?${qs({ email })}`],
      [`/api/account/changepasswordusingtoken?${qs({ email, newPassword: newPassword(), token: "x" })}`],
      [`/api/account/confirmaccount?${qs({ email, password: newPassword(), token: "x" })}`],
      [`/api/account/confirmemail?${qs({ email, token: "x" })}`],
      ["/api/account/invite", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: newEmail("x") }) }],
    ];
    for (const [p, init] of clientOnly) {
      const res = await call(p, user, init);
      expect(res.status, p).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe("insufficient_scope");
    }
    const client = await clientToken();
    for (const p of ["/api/account/isemailconfirmed", "/api/users/", `/api/account/changeusername?${qs({ userName: newEmail("y") })}`, `/api/account/changepasswordusingcurrent?${qs({ currentPassword: password, newPassword: newPassword() })}`]) {
      expect((await call(p, client)).status, p).toBe(403);
    }
    // A token without identity.user cannot act for the user either.
    const narrow = await passwordGrant(email, password, "openid consumer.api");
    const narrowToken = ((await narrow.json()) as { access_token: string }).access_token;
    secrets.add(narrowToken);
    expect((await call("/api/users/", narrowToken)).status).toBe(401); // its aud is consumer.api only
  });
});

// ---------------------------------------------------------------- robustness

describe("malformed input and limits", () => {
  it("answers unknown paths with 404 JSON", async () => {
    const res = await contractFetch(`${base}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(((await res.json()) as { error: string }).error).toBe("not_found");
  });

  it("answers malformed input with 400 JSON, never 500", async () => {
    const token = await clientToken();
    const cases: [string, RequestInit?][] = [
      ["/api/account/isavailable"],
      [`/api/account/isavailable?email=a@b.co&email=c@d.co`],
      [`/api/account/confirmemail?${qs({ email: "a@b.co" })}`],
      ["/api/account/register", { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }],
      ["/api/account/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: 5, password: null }) }],
      ["/api/account/register", { method: "POST", headers: { "content-type": "application/json" }, body: "[]" }],
      ["/api/account/register", { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" }],
      ["/api/account/invite", { method: "POST", headers: { "content-type": "application/json" }, body: "\"just a string\"" }],
    ];
    for (const [p, init] of cases) {
      const res = await call(p, token, init);
      expect(res.status, p).toBe(400);
      expect(res.headers.get("content-type"), p).toContain("application/json");
    }
    const form = await contractFetch(`${base}/connect/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=password&grant_type=client_credentials" });
    expect(form.status).toBe(400);
  });

  it("refuses 1 MB bodies and URLs with 4xx and keeps answering", async () => {
    const token = await clientToken();
    const big = "x".repeat(1024 * 1024);
    const json = await call("/api/account/register", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "a@b.co", password: big }) });
    expect(json.status).toBe(413);
    expect(((await json.json()) as { error: string }).error).toBe("payload_too_large");
    const form = await postForm({ grant_type: "password", username: "a@b.co", password: big, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
    expect(form.status).toBe(413);
    // Node refuses the oversized request line itself (431) before Express sees it.
    const url = await call(`/api/account/isavailable?email=${big}`, token);
    expect(url.status).toBe(431);
    const health = await contractFetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
  });
});

// ---------------------------------------------------------------- logging (keep last)

describe("logging", () => {
  it("logs each request with an id and never a password or token value", async () => {
    // One more request that carries every secret parameter in its URL.
    const { email, password } = await registered();
    const token = await userToken(email, password);
    const np = newPassword();
    const res = await call(`/api/account/changepasswordusingcurrent?${qs({ currentPassword: password, newPassword: np })}`, token, { headers: { "x-request-id": "req-test-1" } });
    expect(res.headers.get("x-request-id")).toBe("req-test-1");
    await new Promise((r) => setTimeout(r, 50));

    const requestLines = logLines.map((l) => JSON.parse(l) as { req?: { id?: string; url?: string } }).filter((l) => l.req);
    expect(requestLines.length).toBeGreaterThan(50);
    expect(requestLines.every((l) => typeof l.req?.id === "string" && l.req.id.length > 0)).toBe(true);
    const line = requestLines.find((l) => l.req?.id === "req-test-1");
    expect(line?.req?.url).toContain("currentPassword=[redacted]");
    expect(line?.req?.url).toContain("newPassword=[redacted]");

    const all = logLines.join("\n");
    expect(secrets.size).toBeGreaterThan(20);
    for (const secret of secrets) {
      expect(all.includes(secret), "a secret value reached the log").toBe(false);
      expect(all.includes(encodeURIComponent(secret)), "an encoded secret reached the log").toBe(false);
    }
    expect(all).not.toContain(CLIENT.clientSecret);

    // Outbox mails are logged with their file and their link, the token redacted.
    const mailLines = logLines.map((l) => JSON.parse(l) as { file?: string; links?: string[] }).filter((l) => l.file);
    expect(mailLines.length).toBeGreaterThan(5);
    expect(mailLines[0]?.file).toMatch(/outbox[/\\].+\.eml$/);
    expect(mailLines[0]?.links?.[0]).toMatch(/^http:\/\/localhost:3000\/\w+\?email=[^&]+&token=\[redacted\]$/);
    expect(all.toLowerCase()).not.toContain("authorization");
  });
});

describe("redactUrl", () => {
  it("replaces secret query values however the name is spelled", () => {
    expect(redactUrl("/a?email=x%40y.z&password=p1&NewPassword=p2&current%50assword=p3&tok+en=no&to%6Ben=p4#frag")).toBe(
      "/a?email=x%40y.z&password=[redacted]&NewPassword=[redacted]&current%50assword=[redacted]&tok+en=no&to%6Ben=[redacted]",
    );
    expect(redactUrl("/a?token")).toBe("/a?token=[redacted]");
    expect(redactUrl("/plain/path")).toBe("/plain/path");
    // A person's position (Locations, near me) is not kept either; the ZIP code and the radius are.
    expect(redactUrl("/search/?latitude=47.61&longitude=-122.33&miles=10&zip=")).toBe("/search/?latitude=[redacted]&longitude=[redacted]&miles=10&zip=");
  });
});

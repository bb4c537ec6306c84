// Account takeover paths at the reference identity authority, each written as the
// attack: what the attacker does, and what the owner or the attacker sees afterwards.
// services/identity/README.md has the contract ("Contract", "Mails").
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PostgresQueryCompiler } from "kysely";
import type { KyselyPlugin } from "kysely";
import { pino } from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestPasswordReset, resolvePasswordResetRequest } from "../../services/identity/accounts.ts";
import type { AccountsContext } from "../../services/identity/accounts.ts";
import { DEFAULT_MAIL_FROM, accountMailRenderer, createMailer } from "../../services/identity/mail.ts";
import { createOutbox } from "../../services/identity/outbox.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { contractFetch, lineSink, requestToken } from "./support.ts";
import type { Authority } from "./support.ts";

const PUBLIC_URL = "http://localhost:3000";
const CLIENT = { clientId: "safewindow-web", clientSecret: "takeover-secret-0123456789" };
/** The lockout's window here: short, so a test can wait it out. */
const LOCKOUT = { limit: 5, windowMs: 3_000 };
const SUPPORT = "help@safewindow.test";

let service: IdentityService;
let dataDir: string;
let authority: Authority;
const logLines: string[] = [];
const logger = pino({ level: "debug" }, lineSink(logLines));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-takeover-"));
  service = await startIdentityService({
    dataDir,
    publicUrl: PUBLIC_URL,
    clients: [CLIENT],
    logger,
    tokenRateLimit: LOCKOUT,
    supportEmail: SUPPORT,
  });
  authority = { identityUrl: service.url, client: CLIENT };
});

afterAll(async () => {
  await service?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  // No mail token and no password reached a log line.
  const all = logLines.join("\n");
  expect(tokens.size).toBeGreaterThan(3);
  for (const secret of [...tokens, PASSWORD, NEW_PASSWORD]) expect(all.includes(secret), "a secret reached the log").toBe(false);
});

let counter = 0;
const newEmail = (tag: string) => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const PASSWORD = "Owner!pass1";
const NEW_PASSWORD = "Changed!pass2";
/** Every token a mail carried. */
const tokens = new Set<string>();

async function asClient(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  const res = await requestToken(authority, { grant_type: "client_credentials" });
  const token = ((await res.json()) as { access_token: string }).access_token;
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return contractFetch(`${service.url}${pathAndQuery}`, { ...init, headers });
}

async function register(email: string, password = PASSWORD): Promise<void> {
  const res = await asClient("/api/account/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: email, password }) });
  expect(res.status).toBe(200);
}

const signIn = (username: string, password: string) => requestToken(authority, { grant_type: "password", username, password });

async function userToken(username: string, password: string): Promise<string> {
  const res = await signIn(username, password);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const asUser = (token: string, pathAndQuery: string) => contractFetch(`${service.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link of the text. */
  links: URL[];
}

/** Every mail to `to` in the outbox (DATA_DIR/outbox), oldest first. */
async function mailsTo(to: string): Promise<Mail[]> {
  const dir = path.join(dataDir, "outbox");
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
  const mails: Mail[] = [];
  for (const file of files) {
    const parsed = await PostalMime.parse(await readFile(path.join(dir, file)));
    const first = parsed.to?.[0];
    if (!first || !("address" in first) || first.address !== to) continue;
    const text = parsed.text ?? "";
    const links = [...text.matchAll(/https?:\/\/\S+/g)].map((m) => new URL(m[0]));
    for (const link of links) {
      const token = link.searchParams.get("token");
      if (token) tokens.add(token);
    }
    mails.push({ to, subject: parsed.subject ?? "", text, html: parsed.html ?? "", links });
  }
  return mails;
}

/** Waits (10 s at most) until `count` mails to `to` are in the outbox, and answers them. */
async function waitForMails(to: string, count: number): Promise<Mail[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = await mailsTo(to);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`${mails.length} of ${count} mails to ${to} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The time a notice states, which must be labelled UTC; asserts it lies within [from, to] (whole seconds). */
function expectStatedTime(mail: Mail, from: number, to: number): void {
  const m = /Time of the change: (\d{1,2}) ([A-Z][a-z]+) (\d{4}), (\d{2}):(\d{2}):(\d{2}) UTC \(Coordinated Universal Time\)/.exec(mail.text);
  expect(m, "the notice states the time of the change in UTC").not.toBeNull();
  const [, day, month, year, h, mi, sec] = m as RegExpExecArray;
  const stated = Date.UTC(Number(year), MONTHS.indexOf(month as string), Number(day), Number(h), Number(mi), Number(sec));
  expect(stated).toBeGreaterThanOrEqual(Math.floor(from / 1000) * 1000);
  expect(stated).toBeLessThanOrEqual(to);
  expect(mail.html).toContain(m?.[0]);
}

/** A registered account whose address is confirmed, and its user token. */
async function confirmedAccount(tag: string): Promise<{ email: string; token: string }> {
  const email = newEmail(tag);
  await register(email);
  expect(await (await asClient(`/api/account/sendconfirmationemail?${qs({ email })}`)).json()).toBe(true);
  const [mail] = await waitForMails(email, 1);
  const link = mail?.links[0] as URL;
  expect((await asClient(`/api/account/confirmemail?${link.searchParams}`)).status).toBe(200);
  return { email, token: await userToken(email, PASSWORD) };
}

async function outboxRows(recipient: string) {
  return service.db.selectFrom("identity_outbox").selectAll().where("recipient", "=", recipient).orderBy("created_at").execute();
}

// ---------------------------------------------------------------- lockout

describe("lockout after failed sign-ins", () => {
  it("answers 429 with Retry-After, the seconds until the window resets; after that wait the owner signs in", async () => {
    const email = newEmail("locked");
    await register(email);
    // The attacker guesses; the first failure starts the window.
    const started = Date.now();
    for (let i = 0; i < LOCKOUT.limit; i += 1) expect((await signIn(email, `Guess!${i}pass`)).status).toBe(400);

    const locked = await signIn(email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("cache-control")).toBe("no-store");
    expect(await locked.json()).toEqual({ error: "too_many_requests", error_description: "Too many failed attempts. Try again later." });
    const retryAfter = locked.headers.get("retry-after");
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/); // delta-seconds (RFC 9110 §10.2.3), never 0
    const seconds = Number(retryAfter);
    const left = Math.ceil((started + LOCKOUT.windowMs - Date.now()) / 1000);
    expect(seconds).toBeGreaterThanOrEqual(Math.max(1, left - 1));
    expect(seconds).toBeLessThanOrEqual(Math.ceil(LOCKOUT.windowMs / 1000));

    // Still locked a moment later, with a Retry-After that has not grown.
    const again = await signIn(email, PASSWORD);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(seconds);

    // Waiting as long as it said is enough.
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- e-mail change

describe("e-mail change by whoever holds a session and the password", () => {
  it("tells the old address, with the time in UTC and where to get help; the new address must confirm", async () => {
    const victim = await confirmedAccount("victim");
    const attacker = newEmail("attacker");
    const before = Date.now();
    const changed = await asUser(victim.token, `/api/account/changeusername?${qs({ userName: attacker, applicationContext: "SafeWindow" })}`);
    const after = Date.now();
    expect(await changed.json()).toBe(true);

    // The owner's address learns of it at once: from what, to what, when, and whom to write to.
    const [notice, ...more] = await mailsTo(victim.email).then((all) => all.slice(1)); // [0] is the confirmation from the sign-up
    expect(more).toHaveLength(0);
    expect(notice?.subject).toBe("The e-mail address of your SafeWindow account was changed");
    expect(notice?.text).toContain(`changed from ${victim.email} to ${attacker}`);
    expectStatedTime(notice as Mail, before, after);
    expect(notice?.text).toContain(`If you did not, someone else has taken over your account`);
    expect(notice?.text).toContain(`Write to ${SUPPORT} at once, from this address`);
    expect(notice?.links).toEqual([]); // nothing in it that acts on the account
    expect(notice?.html).toContain(SUPPORT);

    // Both mails were written by the change's own transaction (one database clock reading).
    const [noticeRow] = await outboxRows(victim.email).then((rows) => rows.filter((r) => r.kind === "email_changed"));
    const [confirmRow] = await outboxRows(attacker);
    expect(noticeRow).toMatchObject({ status: "sent", token: null, token_id: null, new_address: attacker });
    expect(confirmRow).toMatchObject({ kind: "confirm_email", status: "sent" });
    expect(noticeRow?.created_at.getTime()).toBe(confirmRow?.created_at.getTime());

    // The new address is unconfirmed until its own link is followed.
    expect(await (await asUser(victim.token, "/api/account/isemailconfirmed")).json()).toBe(false);
    expect(await (await asUser(victim.token, "/api/users/")).json()).toMatchObject({ userName: attacker, emailConfirmed: false });
    const [confirmation] = await waitForMails(attacker, 1);
    const link = confirmation?.links[0] as URL;
    expect(link.pathname).toBe("/confirmemail");
    expect(link.searchParams.get("email")).toBe(attacker);
    expect((await asClient(`/api/account/confirmemail?${link.searchParams}`)).status).toBe(200);
    expect(await (await asUser(victim.token, "/api/account/isemailconfirmed")).json()).toBe(true);

    // Which is why the notice matters: the old address no longer signs in.
    expect((await signIn(victim.email, PASSWORD)).status).toBe(400);
  });

  it("tells nobody when the change is refused", async () => {
    const owner = await confirmedAccount("refused");
    const other = await confirmedAccount("other");
    for (const userName of [other.email, "not an address", owner.email]) {
      expect(await (await asUser(owner.token, `/api/account/changeusername?${qs({ userName })}`)).json()).toBe(false);
    }
    expect((await outboxRows(owner.email)).map((r) => r.kind)).toEqual(["confirm_email"]);
    expect((await outboxRows(other.email)).map((r) => r.kind)).toEqual(["confirm_email"]);
  });
});

// ---------------------------------------------------------------- password notices

describe("password change and reset are told to the account's address", () => {
  it("a change with the current password: the owner learns when, and how to take the account back", async () => {
    const owner = await confirmedAccount("changed");
    const change = (currentPassword: string) =>
      asUser(owner.token, `/api/account/changepasswordusingcurrent?${qs({ currentPassword, newPassword: NEW_PASSWORD, applicationContext: "SafeWindow" })}`);
    // A wrong guess changes nothing and tells nothing.
    expect(await (await change("Wrong!guess1")).json()).toBe(false);
    expect(await mailsTo(owner.email)).toHaveLength(1);

    const before = Date.now();
    expect(await (await change(PASSWORD)).json()).toBe(true);
    const after = Date.now();
    const notice = (await mailsTo(owner.email))[1] as Mail;
    expect(notice.subject).toBe("Your SafeWindow password was changed");
    expectStatedTime(notice, before, after);
    expect(notice.text).toContain("If you did not, someone else knows your password");
    expect(notice.text).toContain(SUPPORT);
    // Its one link is the app's page to ask for a reset link, which goes to this address.
    expect(notice.links.map((l) => l.href)).toEqual([`${PUBLIC_URL}/requestpasswordchange`]);
    expect((await outboxRows(owner.email)).map((r) => [r.kind, r.status])).toEqual([
      ["confirm_email", "sent"],
      ["password_changed", "sent"],
    ]);
    expect((await signIn(owner.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("a reset by link: the address is told of the reset and its time", async () => {
    const owner = await confirmedAccount("reset");
    expect(await (await asClient(`/api/account/requestpasswordchange?${qs({ email: owner.email })}`)).json()).toBe(true);
    const [, resetMail] = await waitForMails(owner.email, 2);
    const link = resetMail?.links[0] as URL;
    expect(link.pathname).toBe("/resetpassword");

    const before = Date.now();
    const reset = await asClient(`/api/account/changepasswordusingtoken?${qs({ email: owner.email, newPassword: NEW_PASSWORD, token: link.searchParams.get("token") ?? "" })}`);
    const after = Date.now();
    expect(await reset.json()).toEqual({ succeeded: true, errors: [] });
    const notice = (await mailsTo(owner.email))[2] as Mail;
    expect(notice.subject).toBe("Your SafeWindow password was reset");
    expect(notice.text).toContain("was reset with a link sent to this address");
    expectStatedTime(notice, before, after);
    expect(notice.text).toContain(SUPPORT);
    expect(notice.links.map((l) => l.href)).toEqual([`${PUBLIC_URL}/requestpasswordchange`]);

    // A dead link sets nothing and tells nothing.
    const reuse = await asClient(`/api/account/changepasswordusingtoken?${qs({ email: owner.email, newPassword: PASSWORD, token: link.searchParams.get("token") ?? "" })}`);
    expect(reuse.status).toBe(400);
    expect(await mailsTo(owner.email)).toHaveLength(3);
  });
});

// ---------------------------------------------------------------- reset requests

/** Waits (10 s at most) until no reset request for these addresses is pending: the sender has decided. */
async function resetRequestsHandled(...emails: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await service.db.selectFrom("identity_outbox").select("status").where("kind", "=", "reset_request").where("recipient", "in", emails).execute();
    if (rows.length >= emails.length && rows.every((r) => r.status === "done")) return;
    if (Date.now() > deadline) throw new Error(`reset requests not handled: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a reset request row says, apart from its id, its queue times and its claim. */
async function requestRow(email: string) {
  const rows = await service.db.selectFrom("identity_outbox").selectAll().where("kind", "=", "reset_request").where("recipient", "=", email).execute();
  expect(rows).toHaveLength(1);
  const { kind, user_id, token_id, token, requested_uri, occurred_at, new_address } = rows[0]!;
  return { kind, user_id, token_id, token, requested_uri, occurred_at, new_address };
}

describe("reset requests do the same work for known and unknown addresses on the request path", () => {
  it("runs one and the same statement for either address, reading no account; the sender decides later", async () => {
    const owner = await confirmedAccount("known");
    const ghost = newEmail("unknown");
    // The request path of accounts.ts against the service's own database, every statement recorded.
    const compiler = new PostgresQueryCompiler();
    let statements: string[] = [];
    let recording = true;
    const recorder: KyselyPlugin = {
      transformQuery({ node, queryId }) {
        if (recording) statements.push(compiler.compileQuery(node, queryId).sql);
        return node;
      },
      async transformResult({ result }) {
        return result;
      },
    };
    const db = service.db.withPlugin(recorder);
    const mailer = createMailer({ from: DEFAULT_MAIL_FROM, outboxDir: path.join(dataDir, "outbox"), logger });
    const now = () => new Date();
    // A second sender on the same database, as a replica would run it; not started yet.
    const sender = createOutbox({
      db,
      mailer,
      render: accountMailRenderer(PUBLIC_URL, SUPPORT),
      logger,
      now,
      resolveResetRequest: (trx, request) => resolvePasswordResetRequest(ctx, trx, request),
    });
    const ctx: AccountsContext = { db, now, outbox: sender, logger };
    const requestPath = async (email: string) => {
      statements = [];
      await requestPasswordReset(ctx, email, `${PUBLIC_URL}/resetpassword`);
      return statements;
    };

    const forKnown = await requestPath(owner.email.toUpperCase());
    const forUnknown = await requestPath(ghost);
    expect(forKnown).toEqual(forUnknown);
    expect(forKnown).toHaveLength(1);
    expect(forKnown[0]).toMatch(/^insert into "identity_outbox"/);
    expect(forKnown.join("\n")).not.toMatch(/identity_users|identity_user_tokens/);
    // The rows are alike too, and stay so: no user, no token, whatever the sender finds.
    const expected = { kind: "reset_request", user_id: null, token_id: null, token: null, requested_uri: `${PUBLIC_URL}/resetpassword`, occurred_at: null, new_address: null };
    expect(await requestRow(owner.email)).toEqual(expected);
    expect(await requestRow(ghost)).toEqual(expected);

    // Later, the sender looks the address up: a reset link for the account, nothing for the unknown address.
    recording = false;
    sender.start();
    try {
      await resetRequestsHandled(owner.email, ghost);
      const [, reset] = await waitForMails(owner.email, 2);
      expect(reset?.subject).toBe("Reset your SafeWindow password");
      expect(reset?.links[0]?.pathname).toBe("/resetpassword");
      expect(await mailsTo(ghost)).toEqual([]);
      expect(await requestRow(owner.email)).toEqual(expected);
      expect(await requestRow(ghost)).toEqual(expected);
    } finally {
      await sender.close();
      mailer.close();
    }
  });

  it("over HTTP: the same answer for either address; the account's owner gets the link, nobody else gets anything", async () => {
    const owner = await confirmedAccount("known-http");
    const ghost = newEmail("unknown-http");
    const ask = (email: string) => asClient(`/api/account/requestpasswordchange?${qs({ email, applicationContext: "SafeWindow", requestedUri: `${PUBLIC_URL}/resetpassword` })}`);
    const answer = async (res: Response) => ({
      status: res.status,
      body: await res.text(),
      headers: [...res.headers].filter(([name]) => name !== "date" && name !== "x-request-id"),
    });
    const known = await answer(await ask(owner.email));
    const unknown = await answer(await ask(ghost));
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ status: 200, body: "true" });

    const expected = { kind: "reset_request", user_id: null, token_id: null, token: null, requested_uri: `${PUBLIC_URL}/resetpassword`, occurred_at: null, new_address: null };
    expect(await requestRow(owner.email)).toEqual(expected);
    expect(await requestRow(ghost)).toEqual(expected);

    await resetRequestsHandled(owner.email, ghost);
    const [, reset] = await waitForMails(owner.email, 2);
    const link = reset?.links[0] as URL;
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/resetpassword`);
    expect(link.searchParams.get("email")).toBe(owner.email);
    // The link works, once.
    const set = await asClient(`/api/account/changepasswordusingtoken?${qs({ email: owner.email, newPassword: NEW_PASSWORD, token: link.searchParams.get("token") ?? "" })}`);
    expect(await set.json()).toEqual({ succeeded: true, errors: [] });
    // The unknown address: no mail, and no row but its request.
    expect(await mailsTo(ghost)).toEqual([]);
    expect((await outboxRows(ghost)).map((r) => [r.kind, r.status])).toEqual([["reset_request", "done"]]);
  });
});

// The identity authority's mail outbox (services/identity/README.md "Mail outbox"): a mail is
// written in the transaction of the change that causes it, held or sent at once, retried after
// a transport failure (file outbox and SMTP), delivered at start when an earlier run left it
// pending, never sent twice by two senders on one database, and the sender stops with close().
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { pino } from "pino";
import PostalMime from "postal-mime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityOptions, IdentityService } from "../../services/identity/server.ts";
import { SIGNING_SECRET_FILE } from "../../services/identity/tokens.ts";
import { startPostgres } from "./postgres.ts";
import type { PostgresServer } from "./postgres.ts";
import { startHeldSmtpPeer, startSmtpPeer, type SmtpHold as SmtpHoldOf } from "./smtp-peer.ts";
import { accessToken, contractFetch, eventually, lineSink } from "./support.ts";

const PUBLIC_URL = "http://localhost:3000";
const CLIENT = { clientId: "web", clientSecret: "outbox-test-secret-0123456789" };
const PASSWORD = "Outbox!pass1";

const dirs: string[] = [];
const running: IdentityService[] = [];
/** Every mail token seen; none may reach a log line. */
const tokens = new Set<string>();
const logLines: string[] = [];
const logger = pino({ level: "debug" }, lineSink(logLines));

async function emptyDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "identity-outbox-"));
  dirs.push(dir);
  return dir;
}

let template: string;
/**
 * A data dir with a migrated, empty database: a copy of one made once (a new PGlite dir costs
 * seconds), with the secret its signing key is sealed with.
 */
async function newDir(): Promise<string> {
  const dir = await emptyDir();
  await cp(path.join(template, "identity"), path.join(dir, "identity"), { recursive: true });
  await cp(path.join(template, SIGNING_SECRET_FILE), path.join(dir, SIGNING_SECRET_FILE));
  return dir;
}

async function start(dataDir: string, extra: Partial<IdentityOptions> = {}): Promise<IdentityService> {
  const service = await startIdentityService({ dataDir, publicUrl: PUBLIC_URL, clients: [CLIENT], logger, ...extra });
  running.push(service);
  return service;
}

async function stop(service: IdentityService): Promise<void> {
  await service.close();
  running.splice(running.indexOf(service), 1);
}

beforeAll(async () => {
  template = await emptyDir();
  const service = await startIdentityService({ dataDir: template, publicUrl: PUBLIC_URL, clients: [CLIENT], logger: pino({ level: "silent" }) });
  await service.close();
});

afterEach(async () => {
  for (const service of running.splice(0)) await service.close();
});

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  // Every test's mails carried tokens, and the log saw every delivery and failure.
  expect(tokens.size).toBeGreaterThan(5);
  const all = logLines.join("\n");
  for (const token of tokens) expect(all.includes(token), "a mail token reached the log").toBe(false);
});

let counter = 0;
const newEmail = (tag: string) => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function asClient(service: IdentityService, pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  const token = await accessToken({ identityUrl: service.url, client: CLIENT }, { grant_type: "client_credentials" });
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return contractFetch(`${service.url}${pathAndQuery}`, { ...init, headers });
}

const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const register = (service: IdentityService, email: string) => asClient(service, "/api/account/register", post({ userName: email, password: PASSWORD }));
const invite = (service: IdentityService, email: string) => asClient(service, "/api/account/invite", post({ userName: email }));
const sendConfirmation = (service: IdentityService, email: string) => asClient(service, `/api/account/sendconfirmationemail?${new URLSearchParams({ email })}`);

interface Mail {
  to: string;
  link: URL;
}

async function parseMail(raw: Buffer | string): Promise<Mail> {
  const parsed = await PostalMime.parse(raw);
  const link = new URL(/https?:\/\/\S+/.exec(parsed.text ?? "")?.[0] ?? "http://invalid");
  const token = link.searchParams.get("token");
  if (token) tokens.add(token);
  const first = parsed.to?.[0];
  return { to: first && "address" in first ? (first.address ?? "") : "", link };
}

/** The mails in `${dataDir}/outbox`, oldest first. */
async function fileMails(dataDir: string): Promise<Mail[]> {
  const dir = path.join(dataDir, "outbox");
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
  return Promise.all(files.map(async (f) => parseMail(await readFile(path.join(dir, f)))));
}

const mailsTo = (mails: Mail[], to: string) => mails.filter((m) => m.to === to);

/** `eventually` (tests/integration/support.ts) within 10 s. */
const eventually10s = <T>(what: string, check: () => Promise<T | undefined>) => eventually(what, check, 10_000);

async function outboxRows(service: IdentityService, recipient: string) {
  return service.db.selectFrom("identity_outbox").selectAll().where("recipient", "=", recipient).orderBy("created_at").execute();
}

/**
 * Waits until no mail to `recipient` is pending (each one sent, cancelled or given up), and answers
 * the rows: sendconfirmationemail answers before its mail goes out (README "Sending the confirmation mail").
 */
const settled = (service: IdentityService, recipient: string) =>
  eventually10s(`the mails to ${recipient} finished`, async () => {
    const rows = await outboxRows(service, recipient);
    return rows.every((r) => r.status !== "pending") ? rows : undefined;
  });

/** An SMTP peer that keeps what it receives, parsed. */
const startSmtp = () => startSmtpPeer(parseMail);

/** The held SMTP peer of tests/integration/smtp-peer.ts, making `Mail`s. */
const startHeldSmtp = () => startHeldSmtpPeer(parseMail);
/** A hold on a `Mail`. */
type SmtpHold = SmtpHoldOf<Mail>;

/** An SMTP URL where nothing listens: every delivery fails at connect. */
const DEAD_SMTP = "smtp://127.0.0.1:1";

describe("registration and its confirmation mail", () => {
  it("writes the account and its held mail together; the explicit call sends exactly that mail", async () => {
    const dataDir = await newDir();
    const service = await start(dataDir, { mailQueue: { registrationHoldMs: 500, pollMs: 100 } });
    const email = newEmail("reg");
    expect((await register(service, email)).status).toBe(200);

    const user = await service.db.selectFrom("identity_users").selectAll().where("user_name", "=", email).executeTakeFirstOrThrow();
    const [held] = await outboxRows(service, email);
    expect(held).toMatchObject({ user_id: user.id, kind: "confirm_email", status: "pending", attempts: 0, claimed_by: null });
    expect(held?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mailsTo(await fileMails(dataDir), email)).toHaveLength(0);

    // The web app asks for the mail right after registering; that sends the held one, now (right after the answer).
    expect(await (await sendConfirmation(service, email)).json()).toBe(true);
    await settled(service, email);
    const [mail] = mailsTo(await fileMails(dataDir), email);
    expect(mail?.link.searchParams.get("token")).toBe(held?.token);
    const [sent] = await outboxRows(service, email);
    expect(sent).toMatchObject({ id: held?.id, status: "sent", token: null, attempts: 1, claimed_by: null });

    // Past the hold: still one mail, and its link works.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(mailsTo(await fileMails(dataDir), email)).toHaveLength(1);
    const confirmed = await asClient(service, `/api/account/confirmemail?${mail?.link.searchParams}`);
    expect(confirmed.status).toBe(200);
  });

  it("sends the held mail when the hold ends without the explicit call (a client that crashed in between)", async () => {
    const dataDir = await newDir();
    const service = await start(dataDir, { mailQueue: { registrationHoldMs: 300 } });
    const email = newEmail("crash");
    expect((await register(service, email)).status).toBe(200);
    const [mail] = await eventually10s("the held mail", async () => {
      const mails = mailsTo(await fileMails(dataDir), email);
      return mails.length > 0 ? mails : undefined;
    });
    expect(mail?.link.pathname).toBe("/confirmemail");
    expect((await outboxRows(service, email)).map((r) => r.status)).toEqual(["sent"]);
    expect((await asClient(service, `/api/account/confirmemail?${mail?.link.searchParams}`)).status).toBe(200);
  });

  it("a later explicit call sends a new link and ends the earlier one", async () => {
    const dataDir = await newDir();
    const service = await start(dataDir);
    const email = newEmail("again");
    await register(service, email);
    // Each call answers before its mail is sent; one made while that mail is still on its way sends nothing new.
    await sendConfirmation(service, email);
    await settled(service, email);
    await sendConfirmation(service, email);
    await settled(service, email);
    const [first, second] = mailsTo(await fileMails(dataDir), email);
    expect(second?.link.searchParams.get("token")).not.toBe(first?.link.searchParams.get("token"));
    expect((await asClient(service, `/api/account/confirmemail?${first?.link.searchParams}`)).status).toBe(400);
    expect((await asClient(service, `/api/account/confirmemail?${second?.link.searchParams}`)).status).toBe(200);
  });
});

describe("a failing transport", () => {
  it("file outbox: answers 502, keeps the mail pending with the account, retries with backoff and delivers it", async () => {
    const dataDir = await newDir();
    // A file where the outbox directory should be: every write fails until it is removed.
    await writeFile(path.join(dataDir, "outbox"), "not a directory");
    const service = await start(dataDir, { mailQueue: { retryBaseMs: 100, retryMaxMs: 200, pollMs: 100, maxAttempts: 50 } });
    const email = newEmail("invitee");
    const res = await invite(service, email);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: string }).error).toBe("mail_delivery_failed");

    // The account and its mail were written together; the mail waits for a retry.
    expect(await service.db.selectFrom("identity_users").select("id").where("user_name", "=", email).executeTakeFirst()).toBeDefined();
    const [pending] = await outboxRows(service, email);
    expect(pending).toMatchObject({ kind: "invite", status: "pending", attempts: 1, claimed_by: null });
    expect(pending?.last_error).toBeTruthy();
    expect(pending?.last_error).not.toContain(pending?.token ?? "-");

    // The sender retries on its own...
    await eventually10s("a retry", async () => ((await outboxRows(service, email))[0]?.attempts ?? 0) >= 3 || undefined);
    expect(logLines.some((l) => l.includes("mail delivery failed; will retry") && l.includes(pending?.id ?? "-"))).toBe(true);

    // ...and delivers once the transport works again.
    await rm(path.join(dataDir, "outbox"));
    const mail = await eventually10s("the retried mail", async () => mailsTo(await fileMails(dataDir), email)[0]);
    const row = (await outboxRows(service, email))[0];
    expect(row).toMatchObject({ status: "sent", token: null, last_error: null });
    expect(mailsTo(await fileMails(dataDir), email)).toHaveLength(1);
    const ok = await asClient(service, `/api/account/confirmaccount?${new URLSearchParams({ email, password: PASSWORD, token: mail.link.searchParams.get("token") ?? "" })}`);
    expect(ok.status).toBe(200);
  });

  it("SMTP: gives up after maxAttempts, logged, and clears the token", async () => {
    const dataDir = await newDir();
    const service = await start(dataDir, { smtpUrl: DEAD_SMTP, mailQueue: { retryBaseMs: 50, retryMaxMs: 50, pollMs: 100, maxAttempts: 3 } });
    const email = newEmail("giveup");
    expect((await invite(service, email)).status).toBe(502);
    const row = await eventually10s("the mail given up", async () => {
      const r = (await outboxRows(service, email))[0];
      return r?.status === "failed" ? r : undefined;
    });
    expect(row).toMatchObject({ attempts: 3, token: null, claimed_by: null });
    expect(row.finished_at).toBeInstanceOf(Date);
    expect(logLines.some((l) => l.includes("mail delivery failed; giving up") && l.includes(row.id))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await outboxRows(service, email))[0]?.attempts).toBe(3);
  });

  it("a pending mail is delivered at the next start (SMTP), not sent again after", async () => {
    const dataDir = await newDir();
    const smtp = await startSmtp();
    try {
      const first = await start(dataDir, { smtpUrl: DEAD_SMTP, mailQueue: { retryBaseMs: 100 } });
      const email = newEmail("leftover");
      expect((await invite(first, email)).status).toBe(502);
      await stop(first);

      // The default poll is 30 s: only the start-up run can send it this soon.
      const second = await start(dataDir, { smtpUrl: smtp.url });
      const mail = await eventually10s("the leftover mail over SMTP", async () => mailsTo(smtp.received, email)[0]);
      expect(mail.link.pathname).toBe("/confirmaccount");
      await eventually10s("the row marked sent", async () => ((await outboxRows(second, email))[0]?.status === "sent" ? true : undefined));
      const ok = await asClient(second, `/api/account/confirmaccount?${new URLSearchParams({ email, password: PASSWORD, token: mail.link.searchParams.get("token") ?? "" })}`);
      expect(ok.status).toBe(200);

      await stop(second);
      const third = await start(dataDir, { smtpUrl: smtp.url });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mailsTo(smtp.received, email)).toHaveLength(1);
      await stop(third);
    } finally {
      await smtp.close();
    }
  });
});

describe("supersede and cancel", () => {
  it("a new reset link cancels the older mail still waiting for a retry", async () => {
    const dataDir = await newDir();
    await writeFile(path.join(dataDir, "outbox"), "not a directory");
    const service = await start(dataDir, { mailQueue: { retryBaseMs: 60_000 } });
    const email = newEmail("reset");
    await register(service, email);
    const ask = () => asClient(service, `/api/account/requestpasswordchange?${new URLSearchParams({ email })}`);
    const resetRows = async () => (await outboxRows(service, email)).filter((r) => r.kind === "reset_password");
    // The request is answered before any mail work (README "Reset requests"); its mail then fails.
    expect(await (await ask()).json()).toBe(true);
    await eventually10s("the first reset mail failed once", async () => ((await resetRows())[0]?.last_error ? true : undefined));
    expect(await (await ask()).json()).toBe(true);
    const resets = await eventually10s("the second reset mail failed once", async () => {
      const rows = await resetRows();
      return rows.length === 2 && rows[1]?.last_error ? rows : undefined;
    });
    expect(resets.map((r) => r.status)).toEqual(["cancelled", "pending"]);
    expect(resets[0]?.token).toBeNull();
    // The two failed attempts' tokens are in no mail, but still secrets.
    for (const r of resets) if (r.token) tokens.add(r.token);
  });
});

describe("a link that dies while its mail is being sent", () => {
  it("leaves the mail to its sender: it goes out once and its row says sent", async () => {
    const smtp = await startHeldSmtp();
    try {
      const service = await start(await newDir(), { smtpUrl: smtp.url });
      const email = newEmail("in-flight");
      await register(service, email);
      const user = await accessToken({ identityUrl: service.url, client: CLIENT }, { grant_type: "password", username: email, password: PASSWORD });
      // The held confirmation mail, sent now: the peer keeps it waiting, past the sender's link check.
      const held = smtp.hold((mail) => mail.to === email && mail.link.searchParams.has("token"));
      const sending = sendConfirmation(service, email);
      await held.arrived;
      const [row] = await outboxRows(service, email);
      expect(row?.claimed_until).toBeTruthy();
      // Meanwhile the account moves to another address, which ends every link mail of the old one.
      const next = newEmail("in-flight-next");
      const moved = await contractFetch(`${service.url}/api/account/changeusername?${new URLSearchParams({ userName: next })}`, {
        headers: { authorization: `Bearer ${user}` },
      });
      expect(await moved.json()).toBe(true);
      held.release();
      expect(await (await sending).json()).toBe(true);
      // The call answered before its mail was sent: wait until the peer accepted it and its row finished.
      await settled(service, email);
      expect(mailsTo(smtp.received, email).filter((m) => m.link.searchParams.get("token"))).toHaveLength(1);
      expect((await outboxRows(service, email)).find((r) => r.id === row?.id)).toMatchObject({ status: "sent", token: null });
      expect(logLines.filter((l) => l.includes(row?.id ?? "?") && l.includes("cancelled or reclaimed"))).toEqual([]);
    } finally {
      await smtp.close();
    }
  });
});

describe("notices", () => {
  it("a notice that failed is retried, is not cancelled by later links, and goes out once the transport works", async () => {
    const dataDir = await newDir();
    await writeFile(path.join(dataDir, "outbox"), "not a directory");
    const service = await start(dataDir, { mailQueue: { retryBaseMs: 100, retryMaxMs: 200, pollMs: 100, maxAttempts: 50 } });
    const email = newEmail("notice");
    expect((await register(service, email)).status).toBe(200);
    const user = await accessToken({ identityUrl: service.url, client: CLIENT }, { grant_type: "password", username: email, password: PASSWORD });
    const asUser = (pathAndQuery: string) => contractFetch(`${service.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${user}` } });

    // The change stands although its notice cannot be sent now.
    const newPassword = "Outbox!pass2";
    const changed = await asUser(`/api/account/changepasswordusingcurrent?${new URLSearchParams({ currentPassword: PASSWORD, newPassword })}`);
    expect(await changed.json()).toBe(true);
    const [notice] = (await outboxRows(service, email)).filter((r) => r.kind === "password_changed");
    expect(notice).toMatchObject({ status: "pending", token: null, token_id: null });
    expect(notice?.attempts).toBeGreaterThanOrEqual(1);
    expect(notice?.last_error).toBeTruthy();

    // An e-mail change ends every link mail of the account (the held confirmation), not the notice.
    const next = newEmail("notice-next");
    expect(await (await asUser(`/api/account/changeusername?${new URLSearchParams({ userName: next })}`)).json()).toBe(true);
    const byKind = async () => Object.fromEntries((await outboxRows(service, email)).map((r) => [r.kind, r.status]));
    expect(await byKind()).toEqual({ confirm_email: "cancelled", password_changed: "pending", email_changed: "pending" });

    await rm(path.join(dataDir, "outbox"));
    await eventually10s("both notices and the new confirmation sent", async () => {
      const done = (await byKind()).email_changed === "sent" && (await byKind()).password_changed === "sent";
      const confirmation = (await outboxRows(service, next))[0];
      return done && confirmation?.status === "sent" ? true : undefined;
    });
    expect(mailsTo(await fileMails(dataDir), email)).toHaveLength(2);
    expect(mailsTo(await fileMails(dataDir), next)).toHaveLength(1);
  });
});

describe("a deleted account", () => {
  /** Every outbox row naming `addresses` as its recipient or an e-mail change's new address. */
  const rowsNaming = (service: IdentityService, addresses: string[]) =>
    service.db
      .selectFrom("identity_outbox")
      .select(["kind", "status", "recipient"])
      .where((eb) => eb.or([eb("recipient", "in", addresses), eb("new_address", "in", addresses)]))
      .execute();

  it("leaves no row naming the person but its notice, whose row stays only until it is sent", async () => {
    const dataDir = await newDir();
    const smtp = await startSmtp();
    try {
      // The transport fails at first: the notice must wait, and its row with it.
      const first = await start(dataDir, { smtpUrl: DEAD_SMTP, mailQueue: { retryBaseMs: 100, maxAttempts: 50 } });
      const email = newEmail("deleted");
      const bystander = newEmail("bystander");
      await register(first, email);
      await register(first, bystander);
      const user = await accessToken({ identityUrl: first.url, client: CLIENT }, { grant_type: "password", username: email, password: PASSWORD });
      const asUser = (pathAndQuery: string, init: RequestInit = {}) =>
        contractFetch(`${first.url}${pathAndQuery}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${user}` } });
      // Traces: a reset request (a row naming the address, of no user), a password change's notice, and an
      // e-mail change whose notice to the old address names the new one.
      await asClient(first, `/api/account/requestpasswordchange?${new URLSearchParams({ email })}`);
      await eventually10s("the reset request handled", async () => ((await outboxRows(first, email)).some((r) => r.kind === "reset_request" && r.status === "done") ? true : undefined));
      expect(await (await asUser(`/api/account/changepasswordusingcurrent?${new URLSearchParams({ currentPassword: PASSWORD, newPassword: "Outbox!pass2" })}`)).json()).toBe(true);
      const next = newEmail("deleted-next");
      expect(await (await asUser(`/api/account/changeusername?${new URLSearchParams({ userName: next })}`)).json()).toBe(true);
      await asClient(first, `/api/account/requestpasswordchange?${new URLSearchParams({ email: next })}`);
      await eventually10s("the second reset request handled", async () => ((await outboxRows(first, next)).some((r) => r.kind === "reset_request" && r.status === "done") ? true : undefined));
      expect((await rowsNaming(first, [email, next])).length).toBeGreaterThanOrEqual(6);

      const deleted = await asUser("/api/account/delete", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: "Outbox!pass2" }) });
      expect(await deleted.json()).toBe(true);
      // Only the notice's row names the person, pending while the transport fails.
      expect(await rowsNaming(first, [email, next])).toEqual([{ kind: "account_deleted", status: "pending", recipient: next }]);
      // The bystander's rows stay.
      expect((await outboxRows(first, bystander)).length).toBeGreaterThan(0);
      await stop(first);

      // Next start, with a working transport: the notice goes out, and its row goes with it.
      const second = await start(dataDir, { smtpUrl: smtp.url });
      const notice = await eventually10s("the deletion notice over SMTP", async () => mailsTo(smtp.received, next)[0]);
      expect(notice).toBeDefined();
      await eventually10s("the notice's row deleted", async () => ((await rowsNaming(second, [email, next])).length === 0 ? true : undefined));
      expect(logLines.some((l) => l.includes("mail sent") && l.includes(next))).toBe(true);
    } finally {
      await smtp.close();
    }
  });

  it("a notice given up is deleted too", async () => {
    const dataDir = await newDir();
    const service = await start(dataDir, { smtpUrl: DEAD_SMTP, mailQueue: { retryBaseMs: 50, retryMaxMs: 50, pollMs: 100, maxAttempts: 2 } });
    const email = newEmail("given-up");
    await register(service, email);
    const user = await accessToken({ identityUrl: service.url, client: CLIENT }, { grant_type: "password", username: email, password: PASSWORD });
    const deleted = await contractFetch(`${service.url}/api/account/delete`, {
      method: "POST",
      headers: { authorization: `Bearer ${user}`, "content-type": "application/json" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(await deleted.json()).toBe(true);
    await eventually10s("the notice given up", async () => (logLines.some((l) => l.includes("giving up (the row is deleted)")) ? true : undefined));
    expect(await rowsNaming(service, [email])).toEqual([]);
  });
});

// Real PostgreSQL (tests/integration/postgres.ts): PGlite over a socket serves one session, so
// two pools on it would not contend for row locks the way replicas do.
describe("two senders on one PostgreSQL database (scale-out)", () => {
  let pg: PostgresServer;
  beforeAll(async () => {
    pg = await startPostgres({ database: "identity_outbox" });
  });
  afterAll(async () => {
    for (const service of running.splice(0)) await service.close();
    await pg?.close();
  });

  it("never send the same mail twice", async () => {
    const [dirA, dirB] = [await emptyDir(), await emptyDir()];
    const timings = { registrationHoldMs: 60_000, pollMs: 20 };
    // Two replicas of one database share the secret their signing key is sealed with.
    const signingSecret = "one-signing-secret-for-every-replica-of-this-database";
    const a = await start(dirA, { databaseUrl: pg.databaseUrl, mailQueue: timings, signingSecret });
    const b = await start(dirB, { databaseUrl: pg.databaseUrl, mailQueue: timings, signingSecret });
    const emails = Array.from({ length: 40 }, () => newEmail("scale"));
    // Half through each replica; every mail is held...
    for (let i = 0; i < emails.length; i += 8) {
      await Promise.all(emails.slice(i, i + 8).map((email, j) => register(j % 2 === 0 ? a : b, email).then((r) => expect(r.status).toBe(200))));
    }
    // ...until the hold ends for all of them at once: both senders, polling, race for every row.
    await a.db.updateTable("identity_outbox").set({ next_attempt_at: sql<Date>`now()` }).where("recipient", "in", emails).execute();
    await eventually10s("every held mail sent", async () => {
      const rows = await a.db.selectFrom("identity_outbox").select("status").where("recipient", "in", emails).execute();
      return rows.length === emails.length && rows.every((r) => r.status === "sent") ? true : undefined;
    });
    const [byA, byB] = [await fileMails(dirA), await fileMails(dirB)];
    expect([...byA, ...byB].map((m) => m.to).sort()).toEqual([...emails].sort());
    expect(byA.length, "replica A sent some").toBeGreaterThan(0);
    expect(byB.length, "replica B sent some").toBeGreaterThan(0);
  });

  it("answer calls for one account racing on both replicas one after the other: one mail at a time", async () => {
    // The peer keeps each racing round's mail waiting until every call of the round has answered
    // (each answers before its mail is sent): each of them meets it in flight, however slow the
    // machine. (Should two calls both send, both mails are counted once released and fail the test;
    // should a call wait for its mail, the round's hold is released after 20 s.)
    const smtp = await startHeldSmtp();
    try {
      const options = { databaseUrl: pg.databaseUrl, smtpUrl: smtp.url, signingSecret: "one-signing-secret-for-every-replica-of-this-database" };
      const a = await start(await emptyDir(), options);
      const b = await start(await emptyDir(), options);
      const email = newEmail("race");
      await register(a, email);
      const bearers = await Promise.all([a, b].map((s) => accessToken({ identityUrl: s.url, client: CLIENT }, { grant_type: "client_credentials" })));
      let round = 0;
      const race = async (count: number) => {
        const mine = ++round;
        const held = smtp.hold((mail) => mail.to === email && round === mine);
        const fallback = setTimeout(held.release, 20_000);
        await Promise.all(
          Array.from({ length: count }, async (_, i) => {
            const replica = i % 2 === 0 ? a : b;
            const answer = await contractFetch(`${replica.url}/api/account/sendconfirmationemail?${new URLSearchParams({ email })}`, {
              headers: { authorization: `Bearer ${bearers[i % 2]}` },
            });
            expect(await answer.json()).toBe(true);
          }),
        );
        clearTimeout(fallback);
        held.release();
        await settled(a, email);
      };
      // For the held mail: it is sent, once.
      await race(4);
      expect(mailsTo(smtp.received, email)).toHaveLength(1);
      // Once it went out, none waits: the first call makes a new link, and the others meet its mail in flight.
      await race(8);
      const mails = mailsTo(smtp.received, email);
      expect(mails).toHaveLength(2);
      expect(new Set(mails.map((m) => m.link.searchParams.get("token"))).size).toBe(2);
      expect((await outboxRows(a, email)).map((r) => r.status)).toEqual(["sent", "sent"]);
    } finally {
      await smtp.close();
    }
  }, 60_000);
});

describe("close()", () => {
  it("stops the sender: no timer left and no query once the database is closed", async () => {
    const dataDir = await newDir();
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const service = await start(dataDir, { smtpUrl: DEAD_SMTP, mailQueue: { retryBaseMs: 50, retryMaxMs: 50, pollMs: 50, maxAttempts: 1000 } });
    const email = newEmail("closing");
    expect((await invite(service, email)).status).toBe(502);
    // Let the sender retry a few times, then close in the middle of it.
    await eventually10s("retries", async () => ((await outboxRows(service, email))[0]?.attempts ?? 0) >= 3 || undefined);
    const linesBefore = logLines.length;
    await stop(service);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = logLines.slice(linesBefore).map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(after.filter((l) => l.level >= 50), "no error after close").toEqual([]);
    expect(after.at(-1)?.msg).toBe("identity authority stopped");
    expect(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length).toBeLessThanOrEqual(timersBefore);
  });
});

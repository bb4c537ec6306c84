// sendconfirmationemail queues its mail and answers; the mail is sent after the answer
// (services/identity/README.md "Sending the confirmation mail"). Tested by the order of events, never
// by milliseconds: a real SMTP peer holds the mail until the test releases it, and the answer must
// arrive meanwhile. Also: before the answer, every kind of address runs the same statements but for
// a new link's two inserts; and a database that refuses the write answers the failure the web app
// shows as "Failed to send confirmation email." (docs/product/messages.md §8), for every kind of
// address alike. Nothing is mocked: the service, its embedded database and the SMTP peer are real.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PostgresQueryCompiler, sql } from "kysely";
import type { KyselyPlugin } from "kysely";
import { pino } from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogues } from "../../app/messages/catalogues";
import { sendEmailConfirmation } from "../../services/identity/accounts.ts";
import type { AccountsContext } from "../../services/identity/accounts.ts";
import { DEFAULT_MAIL_FROM, accountMailRenderer, createMailer } from "../../services/identity/mail.ts";
import { createOutbox } from "../../services/identity/outbox.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { appClientsAt } from "./app-clients.ts";
import type { AppClients } from "./app-clients.ts";
import { startHeldSmtpPeer, startSmtpPeer, type SmtpHold as SmtpHoldOf } from "./smtp-peer.ts";
import { accessToken, contractFetch, eventually, lineSink } from "./support.ts";
import type { Authority } from "./support.ts";

const PUBLIC_URL = "http://localhost:3000";
/** The web app's client id (its default IDENTITY_CLIENT_ID), so the app's own client can call too. */
const CLIENT = { clientId: "safewindow-web", clientSecret: "confirmation-mail-secret-0123456789" };
const PASSWORD = "Confirm!pass1";

let dataDir: string;
let service: IdentityService;
let smtp: HeldSmtp;
let authority: Authority;
let apis: AppClients;
const logLines: string[] = [];
const logger = pino({ level: "debug" }, lineSink(logLines));
/** Every token a mail carried; none may reach a log line. */
const tokens = new Set<string>();

interface Mail {
  to: string;
  link: URL;
}

async function parseMail(raw: Buffer): Promise<Mail> {
  const parsed = await PostalMime.parse(raw);
  const link = new URL(/https?:\/\/\S+/.exec(parsed.text ?? "")?.[0] ?? "http://invalid");
  const token = link.searchParams.get("token");
  if (token) tokens.add(token);
  const first = parsed.to?.[0];
  return { to: first && "address" in first ? (first.address ?? "") : "", link };
}

type HeldSmtp = Awaited<ReturnType<typeof startHeldSmtp>>;

/** The held SMTP peer of tests/integration/smtp-peer.ts, making `Mail`s. */
const startHeldSmtp = () => startHeldSmtpPeer(parseMail);
/** A hold on a `Mail`. */
type SmtpHold = SmtpHoldOf<Mail>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-confirmation-mail-"));
  smtp = await startHeldSmtp();
  service = await startIdentityService({ dataDir, publicUrl: PUBLIC_URL, clients: [CLIENT], logger, smtpUrl: smtp.url });
  authority = { identityUrl: service.url, client: CLIENT };
  // The web app's identity client, pointed at this service (its configuration is read once, here).
  apis = await appClientsAt(service.url, CLIENT.clientSecret);
});

afterAll(async () => {
  await service?.close();
  await smtp?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  expect(tokens.size).toBeGreaterThan(2);
  const all = logLines.join("\n");
  for (const token of tokens) expect(all.includes(token), "a mail token reached the log").toBe(false);
});

let counter = 0;
const newEmail = (tag: string) => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function asClient(pathAndQuery: string, init: RequestInit = {}, bearer?: string): Promise<Response> {
  const token = bearer ?? (await accessToken(authority, { grant_type: "client_credentials" }));
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return contractFetch(`${service.url}${pathAndQuery}`, { ...init, headers });
}

async function register(email: string): Promise<void> {
  const res = await asClient("/api/account/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: email, password: PASSWORD }) });
  expect(res.status).toBe(200);
}

const sendConfirmation = (email: string, bearer?: string) => asClient(`/api/account/sendconfirmationemail?${new URLSearchParams({ email })}`, {}, bearer);

const mailsTo = (email: string) => smtp.received.filter((m) => m.to === email);

async function outboxRows(recipient: string) {
  return service.db.selectFrom("identity_outbox").selectAll().where("recipient", "=", recipient).orderBy("created_at").execute();
}

/** Waits until no mail to `recipient` is pending (every one sent, or cancelled), and answers the rows. */
const settled = (recipient: string) =>
  eventually(`the mails to ${recipient} sent`, async () => {
    const rows = await outboxRows(recipient);
    return rows.every((r) => r.status !== "pending") ? rows : undefined;
  });

/**
 * `answer`, which must come while `hold` keeps its mail from being accepted. Should the call wait for
 * the mail instead (it cannot get it accepted while held), the hold is released after 20 s, a bound
 * for a stuck call rather than a speed, and the test fails.
 */
async function answeredWhileHeld(hold: SmtpHold, answer: Promise<Response>): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<"stuck">((resolve) => {
    timer = setTimeout(() => resolve("stuck"), 20_000);
  });
  const first = await Promise.race([answer, stuck]);
  clearTimeout(timer);
  if (first === "stuck") {
    hold.release();
    await answer.catch(() => undefined);
    throw new Error("sendconfirmationemail did not answer while its mail was held: it waits for the mail");
  }
  return first;
}

/** A statement as its verb and the table (or function) it names first: "update identity_outbox", "select pg_advisory_xact_lock". */
function statementKind(statement: string): string {
  const flat = statement.replace(/\s+/g, " ").trim();
  const verb = /^\w+/.exec(flat)?.[0] ?? "";
  const target = /\b(?:from|update|into) "?(\w+)/.exec(flat)?.[1] ?? /^select (\w+)\(/.exec(flat)?.[1] ?? flat;
  return `${verb} ${target}`;
}

/** A registered account whose address was confirmed through its mailed link. */
async function confirmedAccount(tag: string): Promise<string> {
  const email = newEmail(tag);
  await register(email);
  expect(await (await sendConfirmation(email)).json()).toBe(true);
  await settled(email);
  const [mail] = mailsTo(email);
  expect((await asClient(`/api/account/confirmemail?${mail?.link.searchParams}`)).status).toBe(200);
  return email;
}

describe("sendconfirmationemail answers before its mail is sent", () => {
  it("answers while the SMTP peer still holds the mail, which is delivered once released: the held registration mail, then a new link", async () => {
    const email = newEmail("order");
    await register(email);
    const [waiting] = await outboxRows(email);
    expect(waiting).toMatchObject({ kind: "confirm_email", status: "pending", claimed_by: null });

    // The registration's held mail: the call claims it, answers, and the mail goes out after.
    const first = smtp.hold((mail) => mail.to === email);
    const answer = await answeredWhileHeld(first, sendConfirmation(email));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toBe(true);
    // The answer is there; the peer has accepted nothing yet (it holds the mail, or the mail is still on its way to it).
    expect(mailsTo(email)).toEqual([]);
    const arrived = await first.arrived;
    expect(arrived.link.searchParams.get("token")).toBe(waiting?.token);
    // Still being sent: the row is claimed by its sender, not sent.
    const [inFlight] = await outboxRows(email);
    expect(inFlight).toMatchObject({ id: waiting?.id, status: "pending" });
    expect(inFlight?.claimed_by).toBeTruthy();
    expect(mailsTo(email)).toEqual([]);
    first.release();
    expect(await settled(email)).toMatchObject([{ id: waiting?.id, status: "sent", token: null }]);
    expect(mailsTo(email).map((m) => m.link.searchParams.get("token"))).toEqual([waiting?.token]);

    // Nothing waits now: the call queues a new link, answers, and that mail goes out after.
    const second = smtp.hold((mail) => mail.to === email && mail.link.searchParams.get("token") !== waiting?.token);
    const again = await answeredWhileHeld(second, sendConfirmation(email));
    expect(await again.json()).toBe(true);
    expect(mailsTo(email)).toHaveLength(1);
    const fresh = await second.arrived;
    const rows = await outboxRows(email);
    expect(rows.map((r) => r.status)).toEqual(["sent", "pending"]);
    expect(rows[1]?.token).toBe(fresh.link.searchParams.get("token"));
    second.release();
    expect((await settled(email)).map((r) => r.status)).toEqual(["sent", "sent"]);
    const delivered = mailsTo(email);
    expect(delivered).toHaveLength(2);
    expect(delivered[1]?.link.searchParams.get("token")).toBe(fresh.link.searchParams.get("token"));
    // The new link works, and ended the first one.
    expect((await asClient(`/api/account/confirmemail?${delivered[0]?.link.searchParams}`)).status).toBe(400);
    expect((await asClient(`/api/account/confirmemail?${delivered[1]?.link.searchParams}`)).status).toBe(200);
  }, 60_000);

  it("runs the same statements before answering for an unknown, a confirmed and an unconfirmed address, but for a new link's two inserts", async () => {
    const confirmed = await confirmedAccount("same-confirmed");
    const unconfirmed = newEmail("same-unconfirmed");
    await register(unconfirmed);
    // The request path of accounts.ts on the service's own database, every statement it runs recorded. Its
    // outbox delivers through the unrecorded database: what runs after the answer is not recorded.
    const compiler = new PostgresQueryCompiler();
    let statements: string[] = [];
    const recorder: KyselyPlugin = {
      transformQuery({ node, queryId }) {
        statements.push(compiler.compileQuery(node, queryId).sql);
        return node;
      },
      async transformResult({ result }) {
        return result;
      },
    };
    const mailer = createMailer({ from: DEFAULT_MAIL_FROM, smtpUrl: smtp.url, outboxDir: path.join(dataDir, "outbox"), logger });
    const now = () => new Date();
    const outbox = createOutbox({
      db: service.db,
      mailer,
      render: accountMailRenderer(PUBLIC_URL, "support@safewindow.local"),
      logger,
      now,
      resolveResetRequest: async () => null,
    });
    const ctx: AccountsContext = { db: service.db.withPlugin(recorder), now, outbox, logger };
    const requestPath = async (email: string) => {
      statements = [];
      await sendEmailConfirmation(ctx, email);
      return statements;
    };
    try {
      const forUnknown = await requestPath(newEmail("same-unknown"));
      const forConfirmed = await requestPath(confirmed);
      const forHeldMail = await requestPath(unconfirmed);
      await settled(unconfirmed);
      const forNewLink = await requestPath(unconfirmed);
      await settled(unconfirmed);

      expect(forConfirmed).toEqual(forUnknown);
      // The lookup, the lock, the claim of a waiting mail, the check for one in flight, and the end of older links.
      expect(forUnknown.map(statementKind)).toEqual([
        "select identity_users",
        "select pg_advisory_xact_lock",
        "update identity_outbox",
        "select identity_outbox",
        "update identity_outbox",
        "delete identity_user_tokens",
      ]);
      // An unconfirmed account without a waiting mail: the same, then its new token and outbox row.
      expect(forNewLink.slice(0, forUnknown.length)).toEqual(forUnknown);
      expect(forNewLink.slice(forUnknown.length).map(statementKind)).toEqual(["insert identity_user_tokens", "insert identity_outbox"]);
      // One whose mail waits (registration's): the same steps up to the claim, which takes it.
      expect(forHeldMail).toEqual(forUnknown.slice(0, 3));
      // Each sent its one mail, after the answer.
      expect(mailsTo(unconfirmed)).toHaveLength(2);
      expect(mailsTo(confirmed)).toHaveLength(1);
    } finally {
      await outbox.close();
      mailer.close();
    }
  }, 60_000);
});

describe("a confirmation mail that cannot be queued", () => {
  it("answers the failure, alike for an unconfirmed, a confirmed and an unknown address, which the web app shows as 'Failed to send confirmation email.'", async () => {
    const unconfirmed = newEmail("refused");
    await register(unconfirmed);
    const confirmed = await confirmedAccount("refused-confirmed");
    const unknown = newEmail("refused-unknown");
    const before = await outboxRows(unconfirmed);
    expect(before).toMatchObject([{ kind: "confirm_email", status: "pending", claimed_by: null }]);
    const bearer = await accessToken(authority, { grant_type: "client_credentials" });

    // From here the embedded database refuses every write, as a read-only (standby) database does; it still answers reads.
    await sql`set default_transaction_read_only = on`.execute(service.db);
    let viaApp: Awaited<ReturnType<ReturnType<AppClients["identityApi"]>["sendConfirmationEmail"]>>;
    try {
      for (const email of [unconfirmed, confirmed, unknown]) {
        const res = await sendConfirmation(email, bearer);
        expect(res.status, email).toBe(500);
        expect(await res.json()).toEqual({ error: "server_error", error_description: "Unexpected server error." });
      }
      viaApp = await apis.identityApi().sendConfirmationEmail(unconfirmed);
    } finally {
      await sql`set default_transaction_read_only = off`.execute(service.db);
    }
    expect(viaApp).toMatchObject({ ok: false, status: 500, message: "Failed to send confirmation email." });
    expect(catalogues.en.confirmationEmailSendFailed).toBe("Failed to send confirmation email.");
    expect(logLines.some((l) => l.includes("cannot execute UPDATE in a read-only transaction"))).toBe(true);

    // Nothing was queued, claimed or sent: the registration's mail still waits as it was.
    expect(await outboxRows(unconfirmed)).toEqual(before);
    expect(mailsTo(unconfirmed)).toEqual([]);

    // Once the database takes writes again, the same call queues that mail, and it goes out.
    expect(await (await sendConfirmation(unconfirmed, bearer)).json()).toBe(true);
    expect(await settled(unconfirmed)).toMatchObject([{ id: before[0]?.id, status: "sent" }]);
    expect(mailsTo(unconfirmed).map((m) => m.link.searchParams.get("token"))).toEqual([before[0]?.token]);
  }, 60_000);
});

// The identity authority with a real SMTP peer (smtp-server), a restart on the same data dir
// (the signing key persists, so earlier tokens stay valid), and a failing mail transport.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { startSmtpPeer } from "./smtp-peer.ts";
import type { SmtpPeer } from "./smtp-peer.ts";
import { accessToken, contractFetch } from "./support.ts";

const PUBLIC_URL = "http://localhost:3000/app";
const ISSUER = "http://identity.test";
const CLIENT = { clientId: "web", clientSecret: "smtp-test-secret-0123456789" };

let dataDir: string;
let smtp: SmtpPeer<Buffer>;
let service: IdentityService | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "identity-smtp-"));
  smtp = await startSmtpPeer();
});

afterAll(async () => {
  await service?.close();
  await smtp.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function start(smtpUrl: string): Promise<IdentityService> {
  return startIdentityService({ dataDir, publicUrl: PUBLIC_URL, smtpUrl, issuer: ISSUER, clients: [CLIENT], logger: pino({ level: "silent" }) });
}

/**
 * Waits (20 s at most) until no mail to `recipient` is pending at `running`: sendconfirmationemail
 * answers before its mail is sent (services/identity/README.md "Sending the confirmation mail").
 */
async function mailsFinished(running: IdentityService, recipient: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const pending = await running.db.selectFrom("identity_outbox").select("id").where("recipient", "=", recipient).where("status", "=", "pending").execute();
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error(`the mail to ${recipient} was not sent`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An access token from the authority at `url` as CLIENT (asserts a 200). */
const token = (url: string, fields: Record<string, string>) => accessToken({ identityUrl: url, client: CLIENT }, fields);

const email = "smtp-user@example.com";
const password = "Smtp!pass1";

describe("identity authority over SMTP", () => {
  it("delivers the confirmation mail to the SMTP server, with the base path in the link", async () => {
    service = await start(smtp.url);
    const client = await token(service.url, { grant_type: "client_credentials" });
    const reg = await contractFetch(`${service.url}/api/account/register`, {
      method: "POST",
      headers: { authorization: `Bearer ${client}`, "content-type": "application/json" },
      body: JSON.stringify({ userName: email, password }),
    });
    expect(reg.status).toBe(200);
    const sent = await contractFetch(`${service.url}/api/account/sendconfirmationemail?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${client}` } });
    expect(await sent.json()).toBe(true);

    await mailsFinished(service, email);
    expect(smtp.received).toHaveLength(1);
    const mail = await PostalMime.parse(smtp.received[0] as Buffer);
    expect(mail.subject).toMatch(/confirm/i);
    expect(mail.from?.address).toBe("no-reply@safewindow.local");
    const href = /https?:\/\/\S+/.exec(mail.text ?? "")?.[0] ?? "";
    const link = new URL(href);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/confirmemail`);
    expect(link.searchParams.get("email")).toBe(email);
    const ok = await contractFetch(`${service.url}/api/account/confirmemail?${new URLSearchParams({ email, token: link.searchParams.get("token") ?? "" })}`, {
      headers: { authorization: `Bearer ${client}` },
    });
    expect(ok.status).toBe(200);
  }, 60_000); // it also starts the service on a fresh database: over 30 s once on a 2-core machine under heavy load

  it("keeps issued tokens valid across a restart (key stored in the database)", async () => {
    const first = service as IdentityService;
    const user = await token(first.url, { grant_type: "password", username: email, password });
    const kidBefore = ((await (await contractFetch(`${first.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys[0]?.kid;
    await first.close();
    service = undefined;

    // Point SMTP at a closed port now: the restart must not need the mail server.
    service = await start("smtp://127.0.0.1:1");
    const kidAfter = ((await (await contractFetch(`${service.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys[0]?.kid;
    expect(kidAfter).toBe(kidBefore);
    const me = await contractFetch(`${service.url}/api/users/`, { headers: { authorization: `Bearer ${user}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ userName: email, emailConfirmed: true });
  });

  it("answers 502 JSON when the mail cannot be sent, and keeps running", async () => {
    const url = (service as IdentityService).url;
    const client = await token(url, { grant_type: "client_credentials" });
    const res = await contractFetch(`${url}/api/account/invite`, {
      method: "POST",
      headers: { authorization: `Bearer ${client}`, "content-type": "application/json" },
      body: JSON.stringify({ userName: "smtp-invitee@example.com" }),
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: string }).error).toBe("mail_delivery_failed");
    expect((await contractFetch(`${url}/healthz`)).status).toBe(200);
  });

  it("answers a reset request true although no mail can be sent: the request path does no mail work", async () => {
    const url = (service as IdentityService).url;
    const client = await token(url, { grant_type: "client_credentials" });
    for (const address of [email, "nobody-here@example.com"]) {
      const res = await contractFetch(`${url}/api/account/requestpasswordchange?email=${encodeURIComponent(address)}`, { headers: { authorization: `Bearer ${client}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(true);
    }
  });
});

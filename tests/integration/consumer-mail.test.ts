// The consumer API's mail outbox (services/consumer/outbox.ts on services/shared/outbox.ts): a decided
// dispute's mail is queued in the decision's transaction, so an SMTP server that is down delays it but
// loses nothing: the decision answers 200 at once, the row waits with its error, and after a restart
// on the same data dir (a new process) the mail goes to a real SMTP peer (smtp-server).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsumerService } from "../../services/consumer/server.ts";
import type { ConsumerService } from "../../services/consumer/server.ts";
import { harborviewPdf } from "../fixtures/index.ts";
import { startSmtpPeer } from "./smtp-peer.ts";
import type { SmtpPeer } from "./smtp-peer.ts";
import { callApi, json, makePerson, makeUser, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const REVIEWER = `mail-reviewer-${Math.random().toString(36).slice(2, 8)}@example.com`;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" };
let services: Services;
let dataDir: string;
let consumer: ConsumerService | undefined;
let smtp: SmtpPeer<Buffer>;

beforeAll(async () => {
  services = await startServices({ client: { clientId: "safewindow-web", clientSecret: "consumer-mail-secret-0123456789" }, tmpPrefix: "consumer-mail-" });
  dataDir = await mkdtemp(path.join(tmpdir(), "consumer-mail-smtp-"));
  smtp = await startSmtpPeer();
});

afterAll(async () => {
  await consumer?.close();
  await services?.close();
  await smtp?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A consumer API on `dataDir` (the same database across restarts) that mails through `smtpUrl`. */
function startConsumer(smtpUrl: string): Promise<ConsumerService> {
  return startConsumerService({
    dataDir,
    identityUrl: services.identityUrl,
    logger: pino({ level: "silent" }),
    reviewers: [REVIEWER],
    publicUrl: "https://safewindow.example/app/",
    smtpUrl,
    mailTimings: { retryBaseMs: 60_000 },
  });
}

describe("a decided dispute's mail", () => {
  it("waits in the outbox while SMTP is down, and goes out after a restart", async () => {
    consumer = await startConsumer("smtp://127.0.0.1:1");
    const on = { ...services, consumer };
    const api = (p: string, who: TestUser, init?: RequestInit) => callApi(on, p, who, init);
    const ada = await makePerson(on, ADA, { tag: "mail" });
    const reviewer = await makeUser(services, { email: REVIEWER, confirmed: true });
    const body = new FormData();
    const collectedAt = new Date(Math.floor((Date.now() - 3 * 3600_000) / 60_000) * 60_000);
    body.append("multipartData", new Blob([(await harborviewPdf({ ...ADA, firstName: "Adda", collectedAt })).slice()], { type: "application/pdf" }), "r.pdf");
    const id = (await json(await api("/testresult/addtestresultmultipart/", ada, { method: "POST", body }))).sF_TestResultId as string;
    const post = (p: string, who: TestUser, value: unknown) => api(p, who, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(value) });
    expect((await post("/testresult/dispute/", ada, { sF_TestResultId: id, disputeComment: "A typo." })).status).toBe(200);

    // SMTP refuses: the decision still answers 200 and holds; the mail waits with its error.
    const decided = await post("/testresult/reviewdispute/", reviewer, { sF_TestResultId: id, decision: "accept", responseComment: "Typo confirmed." });
    expect(decided.status).toBe(200);
    const pending = async () => consumer!.db.selectFrom("consumer_outbox").select(["recipient", "status", "attempts", "last_error"]).where("result_id", "=", id).execute();
    await expect.poll(async () => (await pending())[0]?.last_error ?? null, { timeout: 10_000 }).not.toBeNull();
    expect(await pending()).toEqual([{ recipient: ada.email, status: "pending", attempts: 1, last_error: expect.any(String) }]);
    expect(smtp.received).toHaveLength(0);

    // A new process on the same data, with SMTP up: the leftover mail is sent at once, once.
    await consumer.close();
    consumer = await startConsumer(smtp.url);
    // The backoff (60 s) is still running: the restart alone does not send it before it is due.
    expect(smtp.received).toHaveLength(0);
    await consumer.db.updateTable("consumer_outbox").set({ next_attempt_at: new Date(0) }).where("result_id", "=", id).execute();
    await consumer.close();
    consumer = await startConsumer(smtp.url);
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1);
    const mail = await PostalMime.parse(smtp.received[0]!);
    expect(mail.to?.[0]).toMatchObject({ address: ada.email });
    expect(mail.subject).toBe("Your SafeWindow dispute has been reviewed");
    expect(mail.text).toContain("Our response: Typo confirmed.");
    expect(mail.text).toContain(`https://safewindow.example/app/testdetail?id=${id}&tab=dispute`);
    await expect.poll(async () => (await pending())[0]?.status, { timeout: 5_000 }).toBe("sent");
    expect((await pending())[0]).toMatchObject({ attempts: 2, last_error: null });
  });
});

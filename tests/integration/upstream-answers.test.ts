// What the app does with upstream answers that do not fit their contract (docs/architecture/upstream-calls.md
// §6.1, §6.3): server.ts runs against a stand-in identity authority, consumer API and business API whose
// answers each test sets. A wrong answer is a logged upstream error that the screen shows with
// its docs/product/messages.md §8 message or the 502 page, never a 500; a refused token sends the user to
// sign in again; an upstream that does not answer in time is a 503 page.
import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { form, sessionCookieOf, startServer, type Running } from "./server-process.ts";

/** An answer of the stand-in upstream: a status, headers and a JSON body, after `delayMs`. */
interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
  delayMs?: number;
}

const everyScreen = ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"];
const card = {
  firstName: "Ada",
  middleName: null,
  lastName: "Lovelace",
  dob: "1985-12-10",
  safeWindowId: "7KQ2M9XA",
  strongSafetyDate: null,
  weakSafetyDate: null,
  safeWindowDescription: null,
};

/** The answers every test starts from: a signed-in user with a profile and no results. */
function defaultAnswers(): Map<string, Answer> {
  return new Map<string, Answer>([
    ["/connect/token", { body: { access_token: "a-token-of-the-stand-in", token_type: "Bearer", expires_in: 3600 } }],
    // userName missing: the sign-in keeps the address as typed.
    ["/api/users", { body: { id: "user-1", emailConfirmed: true } }],
    ["/api/account/isemailconfirmed", { body: true }],
    ["/consumer/getpermissions", { body: { enabledScreens: everyScreen } }],
    ["/consumer/getsafewindow", { body: card }],
    ["/testresult/getcurrentusertestresults", { body: [] }],
    ["/consumersubscription/subscribers", { body: { success: true, subscriptions: [] } }],
    ["/consumersubscription/publishers", { body: { success: true, subscriptions: [] } }],
  ]);
}

describe("upstream answers that do not fit their contract", () => {
  let upstream: Server;
  let server: Running;
  let cookie: string;
  let answers = defaultAnswers();
  const hanging = new Set<ServerResponse>();

  /** The path as the table keys it: lower case, without a trailing slash. */
  const keyOf = (request: IncomingMessage) => new URL(request.url ?? "/", "http://stand-in").pathname.toLowerCase().replace(/\/$/, "");

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      request.resume();
      const answer = answers.get(keyOf(request)) ?? { status: 404, body: { error: "not_found", error_description: "No such call." } };
      const send = () => {
        hanging.delete(response);
        if (!response.writableEnded) response.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers }).end(JSON.stringify(answer.body));
      };
      if (answer.delayMs) {
        hanging.add(response);
        setTimeout(send, answer.delayMs).unref();
      } else send();
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    server = await startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-answers-")),
      IDENTITY_URL: upstreamUrl,
      IDENTITY_CLIENT_SECRET: "a-client-secret-for-the-test",
      CONSUMER_API_URL: upstreamUrl,
      BUSINESS_API_URL: upstreamUrl,
      UPSTREAM_TIMEOUT_MS: "1000",
    });
    const signedIn = await fetch(`${server.url}/login`, form({ email: "ada@example.com", password: "Window#2026a" }, server.url));
    expect(signedIn.status).toBe(302);
    cookie = sessionCookieOf(signedIn)!;
    expect(cookie).toBeDefined();
  }, 120_000);

  afterAll(async () => {
    for (const response of hanging) response.destroy();
    server.child.kill("SIGTERM");
    await server.exited;
    await new Promise((resolve) => upstream.close(resolve));
  });

  const page = (pathname: string) => fetch(`${server.url}${pathname}`, { headers: { cookie }, redirect: "manual" });
  const post = (pathname: string, body: BodyInit, contentType?: string) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url, ...(contentType ? { "content-type": contentType } : {}) },
      body,
    });

  it("signs in although the user-info answer lacks the user name, and shows the screens", async () => {
    answers = defaultAnswers();
    const response = await page("/safewindow");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("7KQ2M9XA");
  });

  it("hides check-in codes and Venue Check-In when the consumer API lacks the extension; a business API that refuses the token does not end the session on My Settings", async () => {
    answers = defaultAnswers();
    answers.set("/consumer", { body: { ...card, sF_ConsumerId: "c-1", identityUserId: "user-1", postalCode: "98101", marketingOptOut: false, healthUpdatesOptOut: false, dob: "1985-12-10" } });
    // The stand-in answers 404 to /checkin/checkin (no such call): no section, no page.
    const safeWindow = await page("/safewindow");
    expect(safeWindow.status).toBe(200);
    expect(await safeWindow.text()).not.toContain("Check in at a venue");
    expect((await page("/checkin")).status).toBe(404);
    // The embedded business API cannot verify the stand-in's token (401): My Settings shows, without the card, still signed in.
    const settings = await page("/settings");
    expect(settings.status).toBe(200);
    expect(await settings.text()).not.toContain(messages.checkinTitle);
    expect((await page("/safewindow")).status).toBe(200);
  });

  it("a card with a malformed date is the 502 page, logged with the call's name and not the value", async () => {
    answers = defaultAnswers();
    answers.set("/consumer/getsafewindow", { body: { ...card, dob: "the tenth of December", strongSafetyDate: 42 } });
    const response = await page("/safewindow");
    expect(response.status).toBe(502);
    const html = await response.text();
    expect(html).toContain(messages.loadFailed);
    expect(html).toContain(messages.upstreamUnavailable);
    // The log names the call and the fields, never what the upstream sent (it may be personal data).
    const logged = server.output().split("\n").find((line) => line.includes("does not fit its contract") && line.includes('"upstreamCall":"getSafeWindow"'));
    expect(logged).toBeDefined();
    expect(logged).toContain('"path":"dob"');
    expect(logged).toContain('"path":"strongSafetyDate"');
    expect(server.output()).not.toContain("the tenth of December");
  });

  it("a gate answer of the wrong type is the gate's message with 502", async () => {
    answers = defaultAnswers();
    answers.set("/api/account/isemailconfirmed", { body: "yes" });
    const response = await page("/checkaccountstatus");
    expect(response.status).toBe(502);
    expect(await response.text()).toContain(messages.accountLookupFailed);
  });

  it("an upload answer without its consumerMessage is the upload's failure message", async () => {
    answers = defaultAnswers();
    answers.set("/testresult/addtestresultmultipart", { body: { success: true } });
    const upload = new FormData();
    upload.set("file", new File([new TextEncoder().encode("%PDF-1.7\n%%EOF\n")], "result.pdf", { type: "application/pdf" }));
    const response = await post("/mytests", upload);
    expect(response.status).toBe(502);
    expect(await response.text()).toContain(messages.uploadFailed);
  });

  // docs/architecture/results-pipeline.md §5 "Uploads at once": the consumer API's 503 is relayed as a 503 that says when to try again.
  const busyAnswer = { success: false, consumerMessage: "We are checking many test results right now. Please try again in a minute.", reason: "busy" };
  const pdfUpload = () => {
    const upload = new FormData();
    upload.set("file", new File([new TextEncoder().encode("%PDF-1.7\n%%EOF\n")], "result.pdf", { type: "application/pdf" }));
    return upload;
  };

  it("an upload the consumer API answers busy (503) with Retry-After is a 503 with that Retry-After and the seconds in the message", async () => {
    answers = defaultAnswers();
    answers.set("/testresult/addtestresultmultipart", { status: 503, headers: { "retry-after": "7" }, body: busyAnswer });
    const response = await post("/mytests", pdfUpload());
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(await response.text()).toContain(`<p>${messages.uploadBusy(7)}</p>`);
  });

  it("an upload the consumer API answers busy (503) without Retry-After is a 503 with the app's queue wait as Retry-After", async () => {
    answers = defaultAnswers();
    answers.set("/testresult/addtestresultmultipart", { status: 503, body: busyAnswer });
    const response = await post("/mytests", pdfUpload());
    expect(response.status).toBe(503);
    // UPLOAD_QUEUE_WAIT_MS's default, 15 000 ms.
    expect(response.headers.get("retry-after")).toBe("15");
    const html = await response.text();
    expect(html).toContain(`<p>${messages.uploadBusy(15)}</p>`);
    expect(html).not.toContain(messages.uploadFailed);
  });

  it("a follow change answered with success false is its docs/product/messages.md §8 message", async () => {
    answers = defaultAnswers();
    answers.set("/consumersubscription/requestsubscription", { body: { success: false } });
    const response = await post("/addpublisher", new URLSearchParams({ sfConsumerId: "person-2" }), "application/x-www-form-urlencoded");
    // The upstream refused (a 200 that says success: false): a refusal (400), not a broken answer (502).
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(messages.followRequestFailed);
  });

  it("an upstream that does not answer in time is the 503 page", async () => {
    answers = defaultAnswers();
    answers.set("/consumersubscription/subscribers", { body: { success: true, subscriptions: [] }, delayMs: 5_000 });
    const response = await page("/people");
    expect(response.status).toBe(503);
    // Every 503 says when to try again: a minute, as the message does.
    expect(response.headers.get("retry-after")).toBe("60");
    expect(await response.text()).toContain(messages.upstreamUnavailable);
  });

  it("a refused token sends the user to sign in again, with the page to come back to", async () => {
    answers = defaultAnswers();
    answers.set("/consumer/getsafewindow", { status: 401, body: { error: "invalid_token", error_description: "The token was refused." } });
    const response = await page("/safewindow");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?${new URLSearchParams({ redirectTo: "/safewindow" })}`);
    // The token is gone from the session: the next page asks for a sign-in without calling the API.
    answers = defaultAnswers();
    const next = await page("/safewindow");
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toContain("/login?");
    expect(server.child.exitCode).toBeNull();
  });
});

// Encrypted lab reports over real HTTP (SPEC §7 addtestresultmultipart; DESIGN.md §5 steps 1-2;
// LAB-FORMATS.md "Originality"): a real identity authority issues the tokens, the consumer API
// runs with its PDF worker pool and PGlite. Each lab's genuine report for the profile, encrypted
// with a password to open or with an owner password only, is refused as "encrypted" with the
// consumerMessage of its case, and nothing is stored; the same report unencrypted is validated.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectionMessages } from "../../services/consumer/results/errors.ts";
import { startConsumerService } from "../../services/consumer/server.ts";
import type { ConsumerService } from "../../services/consumer/server.ts";
import { startIdentityService } from "../../services/identity/server.ts";
import type { IdentityService } from "../../services/identity/server.ts";
import { labPdf, ownerPasswordOnlyPdf, passwordProtectedPdf, rejectionCases } from "../fixtures/index.ts";
import type { LabId } from "../fixtures/index.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-encrypted-secret-0123456789" };
const HOUR = 3600_000;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
const LABS: LabId[] = ["harborview", "meridian", "cascade"];

let identity: IdentityService;
let consumer: ConsumerService;
let dirs: string[] = [];

beforeAll(async () => {
  dirs = await Promise.all([mkdtemp(path.join(tmpdir(), "encrypted-id-")), mkdtemp(path.join(tmpdir(), "encrypted-"))]);
  const logger = pino({ level: "silent" });
  identity = await startIdentityService({ dataDir: dirs[0]!, publicUrl: "http://localhost:3000", clients: [CLIENT], logger });
  consumer = await startConsumerService({ dataDir: dirs[1]!, identityUrl: identity.url, logger });
});

afterAll(async () => {
  await consumer?.close();
  await identity?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- helpers

async function token(fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${identity.url}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, ...fields }).toString(),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A new account with Ada's profile; its bearer token. */
async function adaWithProfile(): Promise<string> {
  const email = `encrypted-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = `En!${Math.random().toString(36).slice(2, 10)}x9Z`;
  const reg = await fetch(`${identity.url}/api/account/register`, {
    method: "POST",
    headers: { authorization: `Bearer ${await token({ grant_type: "client_credentials", scope: "identity.api" })}`, "content-type": "application/json" },
    body: JSON.stringify({ userName: email, password }),
  });
  expect(reg.status).toBe(200);
  const user = await token({ grant_type: "password", username: email, password });
  const res = await api("/consumer/createprofile", user, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ consumer: { ...ADA, postalCode: "94105" }, latitude: null, longitude: null }),
  });
  expect(res.status).toBe(200);
  return user;
}

function api(p: string, user: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${user}`);
  return fetch(`${consumer.url}${p}`, { ...init, headers });
}

async function upload(user: string, bytes: Uint8Array, name: string): Promise<{ status: number; answer: any }> {
  const form = new FormData();
  form.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), name);
  const res = await api("/testresult/addtestresultmultipart/", user, { method: "POST", body: form });
  expect(res.headers.get("content-type")).toContain("application/json");
  return { status: res.status, answer: await res.json() };
}

async function results(user: string): Promise<any[]> {
  const res = await api("/testresult/getcurrentusertestresults/", user);
  expect(res.status).toBe(200);
  return (await res.json()) as any[];
}

async function safeWindow(user: string): Promise<any> {
  const res = await api("/consumer/getsafewindow", user);
  expect(res.status).toBe(200);
  return res.json();
}

// ---------------------------------------------------------------- tests

describe("encrypted reports", () => {
  it("a report that needs a password to open: 422 encrypted, 'protected with a password', nothing stored", async () => {
    const user = await adaWithProfile();
    for (const lab of LABS) {
      const { status, answer } = await upload(user, await passwordProtectedPdf({ ...ADA, collectedAt: new Date(Date.now() - 6 * HOUR) }, lab), `${lab}-password.pdf`);
      expect(status, `${lab}: ${JSON.stringify(answer)}`).toBe(422);
      expect(answer, lab).toEqual({ success: false, reason: "encrypted", consumerMessage: rejectionMessages.encrypted() });
    }
    expect(await results(user)).toEqual([]);
    expect(await safeWindow(user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null });
  });

  it("a report encrypted with an owner password only (opens without one): 422 encrypted, 'encrypted after your testing company issued it', nothing stored", async () => {
    const user = await adaWithProfile();
    for (const lab of LABS) {
      const { status, answer } = await upload(user, await ownerPasswordOnlyPdf({ ...ADA, collectedAt: new Date(Date.now() - 6 * HOUR) }, lab), `${lab}-locked.pdf`);
      expect(status, `${lab}: ${JSON.stringify(answer)}`).toBe(422);
      expect(answer, lab).toEqual({ success: false, reason: "encrypted", consumerMessage: rejectionMessages.locked() });
      expect(answer.consumerMessage).toContain("Upload the original PDF exactly as you received it from your testing company.");
    }
    expect(await results(user)).toEqual([]);
    expect(await safeWindow(user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null });
  });

  it("the same report unencrypted is validated and opens the window (encryption was the only difference)", async () => {
    const user = await adaWithProfile();
    const o = { ...ADA, collectedAt: new Date(Math.floor((Date.now() - 6 * HOUR) / 60_000) * 60_000) };
    expect((await upload(user, await passwordProtectedPdf(o), "password.pdf")).status).toBe(422);
    expect((await upload(user, await ownerPasswordOnlyPdf(o), "locked.pdf")).status).toBe(422);
    const { status, answer } = await upload(user, await labPdf("harborview", o), "original.pdf");
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(answer).toMatchObject({ success: true, consumerMessage: expect.stringContaining("validated") });
    expect(await results(user)).toEqual([expect.objectContaining({ valid: 1, result: "Negative", publicName: "Harborview Labs" })]);
    expect((await safeWindow(user)).strongSafetyDate).toBe(new Date(o.collectedAt.getTime() + 48 * HOUR).toISOString());
  });

  it("the catalogue's encrypted cases answer their status, reason and exact consumerMessage", async () => {
    const user = await adaWithProfile();
    const cases = rejectionCases(ADA, new Date()).filter((c) => c.reason === "encrypted");
    expect(cases.map((c) => c.name)).toEqual(["password-protected", "owner-password-only"]);
    for (const c of cases) {
      const { status, answer } = await upload(user, await c.build(), `${c.name}.pdf`);
      expect(status, c.name).toBe(c.status);
      expect(answer, c.name).toEqual({ success: false, reason: c.reason, consumerMessage: c.consumerMessage });
    }
    expect(await results(user)).toEqual([]);
  });
});

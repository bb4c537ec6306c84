/**
 * A person's journey through server.ts over HTTP, as a browser without JavaScript makes it:
 * register, confirm the e-mail from the outbox, sign in, enter the profile, upload lab reports.
 * Shared by the integration tests that need a signed-in user of a running server.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { expect } from "vitest";
import { harborviewPdf } from "../fixtures/index";
import { form, sessionCookieOf } from "./server-process";

export const password = "Window#2026a";
/** The person every journey signs up as (the lab reports are made out to them). */
export const person = { firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", usDob: "12/09/1986", postalCode: "10001" };
/** The cookie-banner answer, so pages render as for a returning visitor. */
export const consent = `sw_cookie_consent=${encodeURIComponent(btoa(JSON.stringify("accepted")))}`;

/**
 * Registers `email`, confirms it with the link mailed to DATA_DIR/outbox, signs in and makes the
 * profile of `person`.
 * @returns the browser's cookies (session and consent)
 */
export async function signUp(base: string, dataDir: string, email: string): Promise<string> {
  const registered = await fetch(`${base}/registration`, form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, base));
  expect(registered.status).toBe(302);
  const link = await mailLink(dataDir, email, "/confirmemail");
  expect((await fetch(`${base}/confirmemail${link.search}`)).status).toBe(200);
  const signedIn = await fetch(`${base}/login`, form({ email, password }, base));
  expect(signedIn.status).toBe(302);
  const cookie = `${sessionCookieOf(signedIn)}; ${consent}`;
  const profile = await fetch(`${base}/yourinfo`, form({ firstName: person.firstName, lastName: person.lastName, dob: person.usDob, postalCode: person.postalCode }, base, cookie));
  expect(profile.headers.get("location")).toBe("/welcome");
  return cookie;
}

/** The link containing `linkPart` in the newest mail to `to` in DATA_DIR/outbox (waits up to 20 s). */
export async function mailLink(dataDir: string, to: string, linkPart: string): Promise<URL> {
  const outbox = path.join(dataDir, "outbox");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    let files: string[] = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith(".eml")).sort().reverse();
    } catch {
      // not written yet
    }
    for (const file of files) {
      const mail = await PostalMime.parse(readFileSync(path.join(outbox, file), "utf8"));
      if (!(mail.to ?? []).some((a) => "address" in a && a.address?.toLowerCase() === to.toLowerCase())) continue;
      const link = [...(mail.text ?? "").matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]).find((l) => l.includes(linkPart));
      if (link) return new URL(link);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} with a ${linkPart} link`);
}

/** A Harborview report of `person`, collected `minutesAgo` minutes ago (distinct times: distinct reports). */
export async function report(minutesAgo: number): Promise<Uint8Array> {
  const collectedAt = new Date(Date.now() - minutesAgo * 60_000);
  return harborviewPdf({ ...person, collectedAt, reportedAt: new Date(collectedAt.getTime() + 30 * 60_000) });
}

/** The upload form's post, as a browser without JavaScript sends it (extra headers may be added). */
export function uploadPost(base: string, cookie: string, pdf: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  const body = new FormData();
  body.append("file", new Blob([pdf.slice()], { type: "application/pdf" }), "result.pdf");
  return fetch(`${base}/mytests`, { method: "POST", redirect: "manual", headers: { origin: base, cookie, ...headers }, body });
}

/** The distinct result ids that /mytests lists. */
export async function listedResults(base: string, cookie: string): Promise<string[]> {
  const page = await fetch(`${base}/mytests`, { headers: { cookie } });
  expect(page.status).toBe(200);
  return [...new Set([...(await page.text()).matchAll(/testdetail\?id=([0-9a-f-]{36})/g)].map((m) => m[1]!))];
}

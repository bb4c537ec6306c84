/**
 * The dispute reviewers' screens of server.ts (app/routes/reviews*.tsx) against a reviewer's own
 * dispute (docs/security/data.md "Dispute reviews"): a listed reviewer uploads a report made out to
 * someone else, disputes it, and tries to accept it on /reviews/dispute. Their queue does not list
 * it, and the page answers 404 to GET and POST, as a browser without JavaScript asks; another
 * person's dispute they decide as before, and that person's Test Detail says a reviewer accepted it
 * without naming them. server.ts with its embedded services on a fresh DATA_DIR; needs `npm run build` first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { harborviewPdf } from "../fixtures/index.ts";
import { listedResults, signUp, uploadPost } from "./app-journey";
import { form, startServer, type Running } from "./server-process";

const suffix = Math.random().toString(36).slice(2, 8);
const reviewerEmail = `reviewer-${suffix}@example.com`;
const otherEmail = `disputer-${suffix}@example.com`;
/** Someone other than the profile signUp makes (Grace Hopper): a report of hers is stored invalid. */
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };

let server: Running;
let dataDir: string;
/** The reviewer's cookies, and their own disputed result (a report made out to Ada). */
let reviewer: string;
let own: string;
/** A person who is not a reviewer, and their disputed result (also Ada's report). */
let other: string;
let theirs: string;

/** `cookie`'s browser uploads Ada's report collected `minutesAgo` minutes ago and disputes it; @returns its id. */
async function disputeAdasReport(cookie: string, minutesAgo: number): Promise<string> {
  const before = await listedResults(server.url, cookie);
  const collectedAt = new Date(Date.now() - minutesAgo * 60_000);
  expect((await uploadPost(server.url, cookie, await harborviewPdf({ ...ADA, collectedAt }))).status).toBeLessThan(400);
  const [id] = (await listedResults(server.url, cookie)).filter((r) => !before.includes(r));
  expect(id).toBeDefined();
  const disputed = await fetch(`${server.url}/testdetail?id=${id}`, form({ disputeComment: "The lab got my name wrong." }, server.url, cookie));
  expect(disputed.status).toBe(200);
  return id!;
}

const get = (pathAndQuery: string, cookie: string) => fetch(`${server.url}${pathAndQuery}`, { redirect: "manual", headers: { cookie } });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "sw-reviews-app-"));
  server = await startServer({ DATA_DIR: dataDir, REVIEWER_EMAILS: reviewerEmail });
  reviewer = await signUp(server.url, dataDir, reviewerEmail);
  other = await signUp(server.url, dataDir, otherEmail);
  own = await disputeAdasReport(reviewer, 60);
  theirs = await disputeAdasReport(other, 90);
}, 180_000);

afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a reviewer's own dispute on the review screens", () => {
  it("is not in their queue; another person's dispute is", async () => {
    const queue = await get("/reviews", reviewer);
    expect(queue.status).toBe(200);
    const html = await queue.text();
    expect(html).toContain(`/reviews/dispute?id=${theirs}`);
    expect(html).not.toContain(own);
  });

  it("answers 404 to the reviewer's GET and POST of /reviews/dispute, and the result stays invalid", async () => {
    expect((await get(`/reviews/dispute?id=${theirs}`, reviewer)).status).toBe(200);
    expect((await get(`/reviews/dispute?id=${own}`, reviewer)).status).toBe(404);
    for (const decision of ["accept", "decline"]) {
      const posted = await fetch(`${server.url}/reviews/dispute?id=${own}`, form({ decision, responseComment: "Looks fine to me." }, server.url, reviewer));
      expect(posted.status, decision).toBe(404);
    }
    const detail = await (await get(`/testdetail?id=${own}&tab=dispute`, reviewer)).text();
    expect(detail).not.toContain(messages.resultAcceptedOnReview);
    expect(detail).toContain(messages.disputeThanks);
  });

  it("another person's dispute, accepted by the reviewer, tells that person a reviewer accepted it, not who", async () => {
    const accepted = await fetch(`${server.url}/reviews/dispute?id=${theirs}`, form({ decision: "accept", responseComment: "The lab confirmed the name." }, server.url, reviewer));
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe("/reviews");
    const detail = await get(`/testdetail?id=${theirs}`, other);
    expect(detail.status).toBe(200);
    const html = await detail.text();
    expect(html).toContain(messages.resultAcceptedOnReview);
    expect(html).toMatch(/Manual Review<\/strong>:\s*(<!-- -->)?Accepted on review by a reviewer at /);
    expect(html.toLowerCase()).not.toContain(reviewerEmail);
  });
});

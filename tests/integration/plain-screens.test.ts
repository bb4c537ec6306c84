// The app against upstreams that answer only as the product rules say (docs/product/calls.md §7.5 "Without the extensions"):
// server.ts with its embedded reference services in plain mode (UPSTREAM_EXTENSIONS=off). The product
// rules' screens all work, none answers 5xx, and none offers an extension the upstreams lack: no check-in code,
// no Venue Check-In, Dispute Reviews, Download my data or Delete my account, no page pager or proof line;
// the extension pages answer 404. Needs a build (`npm run build`).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { harborviewPdf } from "../fixtures/index";
import { form, get, signedUpUser, startServer, upload, type Running } from "./server-process";

let server: Running;
let dataDir: string;
let grace: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "sw-plain-screens-"));
  server = await startServer({ DATA_DIR: dataDir, UPSTREAM_EXTENSIONS: "off" });
  grace = await signedUpUser(server, path.join(dataDir, "outbox"), `grace-${Date.now()}@example.com`);
}, 180_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
});

/** The page at `pathAndQuery` for `cookie`: asserts a 200 and answers its HTML. */
async function pageOf(pathAndQuery: string, cookie: string): Promise<string> {
  const response = await get(server, pathAndQuery, cookie);
  expect(response.status, pathAndQuery).toBe(200);
  return response.text();
}

describe("upstreams in plain mode (UPSTREAM_EXTENSIONS=off)", () => {
  it("the gate, My Safe Window and My Tests work; an upload shows its consumerMessage and the result opens without pager or proof", async () => {
    const gate = await get(server, "/checkaccountstatus", grace);
    expect(gate.status).toBe(302);
    expect(gate.headers.get("location")).toBe("/welcome");

    const window = await pageOf("/safewindow", grace);
    expect(window).toContain("My Safe Window");
    // No check-in code: the consumer API lacks /checkin/.
    expect(window).not.toContain("Check in at a venue");

    const pdf = await harborviewPdf({ firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", collectedAt: new Date(Date.now() - 3 * 3600_000) });
    expect((await upload(server, grace, pdf)).headers.get("location")).toBe("/mytests");
    const tests = await pageOf("/mytests", grace);
    expect(tests).toContain("Your test result was validated.");
    const id = /testdetail\?id=([^"&]+)/.exec(tests)?.[1];
    expect(id).toBeDefined();
    // The gate now finds a result, without its outcome (an extension).
    expect((await get(server, "/checkaccountstatus", grace)).headers.get("location")).toBe("/safewindow");

    const detail = await pageOf(`/testdetail?id=${id}`, grace);
    expect(detail).toContain("Harborview");
    expect(detail).toContain(messages.resultProcessed);
    expect(detail).not.toContain('class="pager"');
    expect(detail).not.toContain('class="proof');
    expect(await pageOf(`/testresultviewer?id=${id}`, grace)).not.toContain('class="pager"');
    const image = await get(server, `/testresultviewer/image?id=${id}`, grace);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
  });

  it("My Settings offers none of the extensions, and their pages answer 404", async () => {
    const settings = await pageOf("/settings", grace);
    expect(settings).toContain("Personal Info");
    expect(settings).toContain("Local Data");
    for (const offered of [messages.downloadMyData, messages.deleteAccountTitle, messages.checkinTitle, messages.reviewsTitle]) expect(settings, offered).not.toContain(offered);
    for (const page of ["/settings/data", "/checkin", "/reviews", "/reviews/history", "/settings?panel=delete"]) {
      const response = await get(server, page, grace);
      expect(response.status, page).toBe(page === "/settings?panel=delete" ? 200 : 404);
      if (page === "/settings?panel=delete") expect(await response.text()).not.toContain(messages.deleteAccountConfirm);
    }
    expect(await pageOf("/personalinfo", grace)).toContain("Change Your Info");
  });

  it("the follow screens and My Fun and Locations work; a search hit and a pending request show without a product ID", async () => {
    const ada = await signedUpUser(server, path.join(dataDir, "outbox"), `ada-${Date.now()}@example.com`);
    const found = await pageOf("/addpublisher?q=Grace", ada);
    expect(found).toContain("Grace Hopper");
    expect(found).not.toContain('class="product-id"');
    const graceId = /name="sfConsumerId" value="([^"]+)"/.exec(found)?.[1];
    expect(graceId).toBeDefined();
    const requested = await fetch(`${server.url}/addpublisher?q=Grace`, form({ sfConsumerId: graceId! }, server.url, ada));
    expect(requested.status).toBeLessThan(400);
    const people = await pageOf("/people", ada);
    const relation = /following\?id=([^"&]+)/.exec(people)?.[1];
    expect(relation).toBeDefined();
    const pending = await pageOf(`/following?id=${relation}`, ada);
    expect(pending).toContain("Your follow request is pending.");
    expect(pending).not.toContain('class="product-id"');
    const followers = await pageOf("/people?tab=followers", grace);
    expect(followers).toContain("1 person asks to follow you.");
    for (const page of ["/myfun", "/locations", "/welcome"]) await pageOf(page, ada);
  });
});

// The test-result calls over real HTTP (docs/product/calls.md §7 test result calls; docs/architecture/results-pipeline.md §5 pipeline):
// a real identity authority issues the tokens, the consumer API runs with its PDF worker
// pool and PGlite, uploads are generated lab PDFs (tests/fixtures). One pair of services for
// the whole file; each test uses its own users.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cascadePdf, decompressionBombPdf, harborviewPdf, meridianPdf, rejectionCases, storedCases } from "../fixtures/index.ts";
import { callApi, currentResults, jpegSize, json, makePerson, makeUser, modifyCore, safeWindowOf, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-results-secret-0123456789" };
const HOUR = 3600_000;

let services: Services;

beforeAll(async () => {
  services = await startServices({ client: CLIENT, tmpPrefix: "results-" });
});

afterAll(async () => {
  await services?.close();
});

// ---------------------------------------------------------------- helpers

const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };

const newUser = () => makeUser(services, { tag: "results" });

/** A new user whose profile is `person` in 94105. */
async function withProfile(person: { firstName: string; lastName: string; dob: string; middleName?: string } = ADA): Promise<TestUser> {
  return makePerson(services, { ...person, postalCode: "94105" }, { tag: "results" });
}

const api = (p: string, user: TestUser | null, init?: RequestInit) => callApi(services, p, user, init);

function form(bytes: Uint8Array, field = "multipartData", name = "result.pdf"): FormData {
  const f = new FormData();
  f.append(field, new Blob([bytes.slice()], { type: "application/pdf" }), name);
  return f;
}

async function upload(user: TestUser | null, bytes: Uint8Array, field = "multipartData"): Promise<Response> {
  return api("/testresult/addtestresultmultipart/", user, { method: "POST", body: form(bytes, field) });
}

const results = (user: TestUser) => currentResults(services, user);
const safeWindow = (user: TestUser) => safeWindowOf(services, user);

async function propertyValues(user: TestUser, id: string): Promise<Response> {
  return api(`/testresult/testresultpropertyvalues/?sfTestResultId=${encodeURIComponent(id)}`, user);
}

async function dispute(user: TestUser, detail: Record<string, unknown>): Promise<Response> {
  return api("/testresult/dispute/", user, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(detail) });
}

const hoursAgo = (n: number) => new Date(Date.now() - n * HOUR);
const iso = (d: Date) => d.toISOString();

/** Collection times are whole minutes on every report. */
function minute(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 60_000) * 60_000);
}

// ---------------------------------------------------------------- access

describe("access", () => {
  it("needs a user's bearer token on every call", async () => {
    const calls: [string, RequestInit?][] = [
      ["/testresult/addtestresultmultipart/", { method: "POST", body: form(new Uint8Array([1])) }],
      ["/testresult/getcurrentusertestresults/"],
      ["/testresult/testresultpropertyvalues/?sfTestResultId=x"],
      ["/testresult/getimage/?testResultId=x"],
      ["/testresult/dispute/", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
    ];
    for (const [p, init] of calls) {
      const res = await api(p, null, init);
      expect(res.status, p).toBe(401);
      expect((await json(res)).error).toBe("invalid_token");
    }
  });

  it("a user without a profile: upload 404 with a consumerMessage, an empty list", async () => {
    const user = await newUser();
    const res = await upload(user, await harborviewPdf({ ...ADA, collectedAt: hoursAgo(2) }));
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ success: false, consumerMessage: expect.stringContaining("profile") });
    expect(await results(user)).toEqual([]);
  });

  it("only the owner reads a result, its property values or its image, or disputes it", async () => {
    const owner = await withProfile();
    const stranger = await withProfile();
    const res = await upload(owner, await harborviewPdf({ ...ADA, firstName: "Augusta", collectedAt: hoursAgo(3) }));
    expect(res.status).toBe(200);
    const id = (await json(res)).sF_TestResultId as string;
    expect(await results(stranger)).toEqual([]);
    for (const r of [
      await propertyValues(stranger, id),
      await api(`/testresult/getimage/?testResultId=${id}`, stranger),
      await dispute(stranger, { sF_TestResultId: id, disputeComment: "mine" }),
    ]) {
      expect(r.status).toBe(404);
      expect(await json(r)).toMatchObject({ success: false, consumerMessage: expect.any(String) });
    }
    // Unknown and malformed ids read the same.
    for (const other of ["00000000-0000-4000-8000-000000000000", "not-an-id", "' or 1=1 --"]) {
      expect((await propertyValues(owner, other)).status).toBe(404);
      expect((await api(`/testresult/getimage/?testResultId=${encodeURIComponent(other)}`, owner)).status).toBe(404);
    }
    expect((await api("/testresult/testresultpropertyvalues/", owner)).status).toBe(400);
    expect((await propertyValues(owner, id)).status).toBe(200);
    // The stranger's dispute changed nothing.
    expect((await results(owner))[0]).toMatchObject({ disputeStatus: 0, disputeComment: null });
  });
});

// ---------------------------------------------------------------- accepted uploads

describe("the words the consumer API writes, in the request's language", () => {
  it("answers an upload's consumerMessage and the window's description in Spanish for Accept-Language es, in English without it", async () => {
    const user = await withProfile({ firstName: "Lucía", lastName: "Pérez", dob: "1988-05-06" });
    const person = { firstName: "Lucía", lastName: "Pérez", dob: "1988-05-06" };
    const spanish = { "accept-language": "es-US,es;q=0.9" };
    const res = await api("/testresult/addtestresultmultipart/", user, { method: "POST", body: form(await harborviewPdf({ ...person, collectedAt: minute(hoursAgo(10)) })), headers: spanish });
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.consumerMessage).toMatch(/^Su resultado de prueba se validó\. Su ventana segura es fuerte hasta el \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC y débil hasta el \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/);

    const inSpanish = await json(await api("/consumer/getsafewindow", user, { headers: spanish }));
    expect(inSpanish.safeWindowDescription).toMatch(/^PCR \(NAAT\), muestra tomada el \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const profile = await json(await api("/consumer", user, { headers: spanish }));
    expect(profile.safeWindowDescription).toBe(inSpanish.safeWindowDescription);
    // Without a language, what the service always wrote.
    expect((await safeWindow(user)).safeWindowDescription).toMatch(/^PCR \(NAAT\), collected \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  });

  it("answers a refused upload in Spanish, details of the case included (an unknown lab, a future date, too many pages), and in English without a language", async () => {
    const user = await withProfile({ firstName: "Lucía", lastName: "Pérez", dob: "1988-05-06" });
    const spanish = { "accept-language": "es-US,es;q=0.9" };
    const byReason = new Map(rejectionCases({ firstName: "Lucía", lastName: "Pérez", dob: "1988-05-06" }, new Date()).map((c) => [c.reason as string, c]));
    for (const reason of ["unknown_lab", "future", "too_many_pages", "encrypted", "not_pdf"]) {
      const refused = byReason.get(reason);
      expect(refused, reason).toBeDefined();
      const bytes = await refused!.build();
      const inSpanish = await json(await api("/testresult/addtestresultmultipart/", user, { method: "POST", body: form(bytes), headers: spanish }));
      expect(inSpanish, reason).toMatchObject({ success: false, reason });
      const inEnglish = await json(await api("/testresult/addtestresultmultipart/", user, { method: "POST", body: form(bytes) }));
      expect(inEnglish.consumerMessage, reason).toBe(refused!.consumerMessage ?? inEnglish.consumerMessage);
      expect(inSpanish.consumerMessage, reason).not.toBe(inEnglish.consumerMessage);
      // Spanish words, and none of the English sentence's.
      expect(inSpanish.consumerMessage, reason).toMatch(/\b(este|esta|este archivo|su empresa de pruebas|No reconocemos|informe)\b/i);
      for (const word of ["testing company", "Upload", "upload", "which", "the "]) expect(inSpanish.consumerMessage, `${reason}: ${word}`).not.toContain(word);
    }
  });

  it("names the fields that differ in Spanish in a Spanish upload's message", async () => {
    const user = await withProfile({ firstName: "Lucía", lastName: "Pérez", dob: "1988-05-06" });
    const res = await api("/testresult/addtestresultmultipart/", user, {
      method: "POST",
      body: form(await harborviewPdf({ firstName: "Lucía", lastName: "Gómez", dob: "1988-05-06", collectedAt: minute(hoursAgo(9)) })),
      headers: { "accept-language": "es" },
    });
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.consumerMessage).toMatch(/^Guardamos su resultado, pero no coincide con su perfil: Apellido \(PDF: [^;]+; perfil: Pérez\)/);
    expect(answer.consumerMessage).not.toContain("Last Name");
    expect(answer.consumerMessage).not.toContain("profile:");
  });
});

describe("upload of an original report", () => {
  it("validates a Harborview, a Meridian and a Cascade report made for the profile and opens the window", async () => {
    const user = await withProfile({ firstName: "José", lastName: "O'Brien-Smith", dob: "1990-03-04" });
    const person = { firstName: "José", middleNames: "María", lastName: "O'Brien-Smith", dob: "1990-03-04" };
    const uploads: [string, Uint8Array, Date][] = [];
    const h = minute(hoursAgo(30));
    const m = minute(hoursAgo(20));
    const c = minute(hoursAgo(4));
    uploads.push(["Harborview Labs", await harborviewPdf({ ...person, collectedAt: h, zone: "ET", variation: { extraText: true } }), h]);
    uploads.push(["Meridian Diagnostics", await meridianPdf({ ...person, collectedAt: m, method: "antigen", variation: { shuffle: true, split: "words" } }), m]);
    uploads.push(["Cascade Rapid Testing", await cascadePdf({ ...person, collectedAt: c, method: "molecular", variation: { kerning: true, secondPage: true } }), c]);
    const ids: string[] = [];
    for (const [, bytes] of uploads) {
      const res = await upload(user, bytes);
      const answer = await json(res);
      expect(res.status, JSON.stringify(answer)).toBe(200);
      expect(answer).toEqual({ success: true, consumerMessage: expect.stringMatching(/^Your test result was validated\./), sF_TestResultId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      ids.push(answer.sF_TestResultId);
    }
    const list = await results(user);
    // Newest collection first.
    expect(list.map((r) => r.sF_TestResultId)).toEqual([ids[2], ids[1], ids[0]]);
    expect(list[0]).toEqual({
      sF_TestResultId: ids[2],
      valid: 1,
      disputeStatus: 0,
      diseaseName: "COVID-19",
      testDate: iso(c),
      testingCompanyName: "Cascade Urgent Care Partners, P.C.",
      publicName: "Cascade Rapid Testing",
      testName: "Abbott ID NOW COVID-19",
      result: "Negative",
      strongSafetyDate: iso(new Date(c.getTime() + 48 * HOUR)),
      weakSafetyDate: iso(new Date(c.getTime() + 72 * HOUR)),
      disputeComment: null,
      disputeResponseComment: null,
      pageCount: 2,
      // An upload, not a result fetched by link, without a signed code.
      fetchedFrom: null,
      proof: { kind: "document", label: "document checks", unverifiedSignature: null, disagreement: null },
    });
    expect(list[1]).toMatchObject({ publicName: "Meridian Diagnostics", testingCompanyName: "Meridian Health Diagnostics Ltd", testName: "Lateral flow antigen", testDate: iso(m), strongSafetyDate: iso(new Date(m.getTime() + 24 * HOUR)), pageCount: 1 });
    expect(list[2]).toMatchObject({ publicName: "Harborview Labs", testName: "SARS-CoV-2 RNA, Qualitative NAAT", testDate: iso(h), weakSafetyDate: iso(new Date(h.getTime() + 72 * HOUR)) });
    // The consumer's window is the most recent valid result's.
    expect(await safeWindow(user)).toMatchObject({
      strongSafetyDate: iso(new Date(c.getTime() + 48 * HOUR)),
      weakSafetyDate: iso(new Date(c.getTime() + 72 * HOUR)),
      safeWindowDescription: `Rapid molecular (NAAT), collected ${iso(c).slice(0, 16).replace("T", " ")} UTC`,
    });
    // Property values: one per checked field, all matching.
    const pv = await propertyValues(user, ids[0]!);
    expect(pv.status).toBe(200);
    expect(await json(pv)).toEqual([
      { sF_TestResultPropertyValueId: expect.any(String), name: "First Name", matchInfo: null },
      { sF_TestResultPropertyValueId: expect.any(String), name: "Last Name", matchInfo: null },
      { sF_TestResultPropertyValueId: expect.any(String), name: "Date of Birth", matchInfo: null },
    ]);
    // The image: a JSON string of base64 JPEG that fits 1250x1000.
    const img = await api(`/testresult/getimage/?testResultId=${ids[1]}`, user);
    expect(img.status).toBe(200);
    const b64 = await json<string>(img);
    expect(b64).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const jpeg = Buffer.from(b64, "base64");
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const { width, height } = jpegSize(jpeg);
    expect(width).toBeLessThanOrEqual(1250);
    expect(height).toBeLessThanOrEqual(1000);
    expect(Math.max(width / 1250, height / 1000)).toBeGreaterThan(0.99);
  });

  it("refuses the same file again with a clear consumerMessage and stores nothing more", async () => {
    const user = await withProfile();
    const bytes = await harborviewPdf({ ...ADA, collectedAt: hoursAgo(5) });
    expect((await upload(user, bytes)).status).toBe(200);
    const again = await upload(user, bytes);
    expect(again.status).toBe(422);
    expect(await json(again)).toEqual({ success: false, reason: "duplicate", consumerMessage: expect.stringContaining("already uploaded") });
    expect(await results(user)).toHaveLength(1);
    // Another user may upload the same file (it is then matched against their own profile).
    const other = await withProfile({ firstName: "Grace", lastName: "Hopper", dob: "1906-12-09" });
    const theirs = await upload(other, bytes);
    expect(theirs.status).toBe(200);
    expect((await results(other))[0]).toMatchObject({ valid: 0 });
  });

  it("stores a report for another person with valid 0 and says what differs", async () => {
    const user = await withProfile();
    const res = await upload(user, await harborviewPdf({ firstName: "Grace", lastName: "Lovelace", dob: "1906-12-09", collectedAt: hoursAgo(2) }));
    expect(res.status).toBe(200);
    const answer = await json(res);
    expect(answer.consumerMessage).toMatch(/^We stored your result but it does not match your profile: First Name \(PDF: GRACE; profile: Ada\), Date of Birth \(PDF: 12\/09\/1906; profile: 12\/10\/1990\)\..*dispute/);
    expect((await results(user))[0]).toMatchObject({ valid: 0, strongSafetyDate: null, weakSafetyDate: null });
    expect((await json(await propertyValues(user, answer.sF_TestResultId))).map((p: any) => [p.name, p.matchInfo])).toEqual([
      ["First Name", "PDF: GRACE; profile: Ada"],
      ["Last Name", null],
      ["Date of Birth", "PDF: 12/09/1906; profile: 12/10/1990"],
    ]);
    expect(await safeWindow(user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null });
  });

  it("a positive result is stored valid with no window and ends the window; an inconclusive one changes nothing", async () => {
    const user = await withProfile();
    const negative = minute(hoursAgo(10));
    expect((await upload(user, await cascadePdf({ ...ADA, collectedAt: negative, method: "antigen" }))).status).toBe(200);
    const open = await safeWindow(user);
    expect(open.strongSafetyDate).toBe(iso(new Date(negative.getTime() + 24 * HOUR)));

    const inconclusive = await upload(user, await meridianPdf({ ...ADA, collectedAt: hoursAgo(5), result: "inconclusive" }));
    expect(inconclusive.status).toBe(200);
    expect((await json(inconclusive)).consumerMessage).toContain("void");
    expect(await safeWindow(user)).toEqual(open);

    const positive = await upload(user, await harborviewPdf({ ...ADA, collectedAt: hoursAgo(3), result: "positive" }));
    expect(positive.status).toBe(200);
    expect((await json(positive)).consumerMessage).toMatch(/validated.*positive/);
    expect((await results(user))[0]).toMatchObject({ valid: 1, result: "Positive", strongSafetyDate: null, weakSafetyDate: null });
    expect(await safeWindow(user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null });

    // An older negative result uploaded later does not reopen it.
    expect((await upload(user, await harborviewPdf({ ...ADA, collectedAt: hoursAgo(8) }))).status).toBe(200);
    expect((await safeWindow(user)).strongSafetyDate).toBeNull();
    // A newer one does.
    const newer = minute(hoursAgo(1));
    expect((await upload(user, await meridianPdf({ ...ADA, collectedAt: newer }))).status).toBe(200);
    expect((await safeWindow(user)).weakSafetyDate).toBe(iso(new Date(newer.getTime() + 72 * HOUR)));
    expect((await results(user)).map((r) => r.result)).toEqual(["Negative", "Positive", "Inconclusive", "Negative", "Negative"]);
  });

  it("stores every 'stored' case of the fixtures catalogue as it says", async () => {
    for (const c of storedCases(ADA, new Date())) {
      const user = await withProfile();
      const res = await upload(user, await c.build());
      const answer = await json(res);
      expect(res.status, `${c.name}: ${JSON.stringify(answer)}`).toBe(200);
      expect(answer.success).toBe(true);
      expect(answer.consumerMessage.length).toBeGreaterThan(20);
      expect((await results(user))[0], c.name).toMatchObject(c.stored!);
      if (c.name === "expired") expect(answer.consumerMessage).toContain("already ended");
    }
  });
});

// ---------------------------------------------------------------- rejections

describe("rejections", () => {
  it("answers every rejection case with its status, reason and consumerMessage, and stores nothing", async () => {
    const user = await withProfile();
    // The decompression bomb has a test of its own below.
    for (const c of rejectionCases(ADA, new Date()).filter((c) => c.name !== "decompression-bomb")) {
      const res = await upload(user, await c.build());
      const answer = await json(res);
      expect(res.status, `${c.name}: ${JSON.stringify(answer)}`).toBe(c.status);
      expect(answer, c.name).toEqual({ success: false, reason: c.reason, consumerMessage: expect.stringMatching(/\w.*\.$/) });
    }
    expect(await results(user)).toEqual([]);
    expect(await safeWindow(user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null });
  });

  it("413 past 10 MB, declared or streamed; 400 without the file field or multipart", async () => {
    const user = await withProfile();
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(new TextEncoder().encode("%PDF-1.7\n"));
    const declared = await upload(user, big);
    expect(declared.status).toBe(413);
    expect(await json(declared)).toMatchObject({ success: false, reason: "too_large", consumerMessage: expect.stringContaining("10 MB") });

    // No Content-Length (chunked): the limit is found while streaming.
    const boundary = "----sw-test-boundary";
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="multipartData"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent < 12) controller.enqueue(chunk);
        else {
          controller.enqueue(tail);
          controller.close();
        }
        sent += 1;
      },
    });
    const streamed = await api("/testresult/addtestresultmultipart/", user, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await json(streamed)).reason).toBe("too_large");

    const wrongField = await upload(user, await harborviewPdf({ ...ADA, collectedAt: hoursAgo(2) }), "file");
    expect(wrongField.status).toBe(400);
    expect(await json(wrongField)).toMatchObject({ success: false, reason: "no_file", consumerMessage: expect.any(String) });
    const notMultipart = await api("/testresult/addtestresultmultipart/", user, { method: "POST", headers: { "content-type": "application/pdf" }, body: new Uint8Array([1, 2, 3]) });
    expect(notMultipart.status).toBe(400);
    const noBoundary = await api("/testresult/addtestresultmultipart/", user, { method: "POST", headers: { "content-type": "multipart/form-data" }, body: "x" });
    expect(noBoundary.status).toBe(400);
    expect(await results(user)).toEqual([]);
    // The service still answers on the same connection pool.
    expect((await api("/consumer/getsafewindow", user)).status).toBe(200);
  });

  it("a bomb is rejected without stalling other requests", async () => {
    const user = await withProfile();
    const bomb = await decompressionBombPdf({ ...ADA, collectedAt: hoursAgo(2) });
    const good = await harborviewPdf({ ...ADA, collectedAt: hoursAgo(3) });
    const started = performance.now();
    const pending = upload(user, bomb);
    // While the bomb is parsed, other calls answer fast and another upload goes through.
    const latencies: number[] = [];
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 10; i += 1) {
      const t = performance.now();
      expect((await api("/consumer/getsafewindow", user)).status).toBe(200);
      latencies.push(performance.now() - t);
    }
    const other = await upload(user, good);
    expect(other.status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(422);
    expect(await json(res)).toMatchObject({ success: false, reason: "too_complex" });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    expect((await results(user)).map((r) => r.testDate)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- disputes

describe("disputes", () => {
  it("applies the product's rules: comment required and at most 1000 characters, only valid 0, once", async () => {
    const user = await withProfile();
    const invalid = await json(await upload(user, await harborviewPdf({ ...ADA, lastName: "Byron", collectedAt: hoursAgo(2) })));
    const valid = await json(await upload(user, await harborviewPdf({ ...ADA, collectedAt: hoursAgo(3) })));
    const detail = (await results(user)).find((r) => r.sF_TestResultId === invalid.sF_TestResultId);

    for (const [comment, reason] of [
      ["", "comment_required"],
      ["   ", "comment_required"],
      [null, "comment_required"],
      ["x".repeat(1001), "comment_too_long"],
    ] as const) {
      const res = await dispute(user, { ...detail, disputeComment: comment });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ success: false, reason, consumerMessage: expect.any(String) });
    }
    const onValid = await dispute(user, { sF_TestResultId: valid.sF_TestResultId, disputeComment: "please" });
    expect(onValid.status).toBe(400);
    expect((await json(onValid)).reason).toBe("result_valid");
    expect((await dispute(user, { disputeComment: "no id" })).status).toBe(400);
    expect((await api("/testresult/dispute/", user, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })).status).toBe(400);

    const comment = `My name was Byron before I married. ${"é".repeat(964)}`;
    expect([...comment]).toHaveLength(1000);
    const ok = await dispute(user, { ...detail, disputeComment: comment });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toEqual({ success: true });
    expect((await results(user)).find((r) => r.sF_TestResultId === invalid.sF_TestResultId)).toMatchObject({
      valid: 0,
      disputeStatus: 1,
      disputeComment: comment,
      disputeResponseComment: null,
    });
    const again = await dispute(user, { ...detail, disputeComment: "again" });
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ reason: "already_disputed", consumerMessage: "You have already disputed this test result; we will e-mail you when we have reviewed it." });
    // Worded in the request's language, as every test-result refusal is; another user's result is not found, in Spanish too.
    const spanish = { "content-type": "application/json", "accept-language": "es-US,es;q=0.9" };
    const againInSpanish = await api("/testresult/dispute/", user, { method: "POST", headers: spanish, body: JSON.stringify({ ...detail, disputeComment: "otra vez" }) });
    expect(await json(againInSpanish)).toMatchObject({ reason: "already_disputed", consumerMessage: expect.stringMatching(/^Ya presentó una reclamación sobre este resultado de prueba;/) });
    const tooLong = await api("/testresult/dispute/", user, { method: "POST", headers: spanish, body: JSON.stringify({ ...detail, disputeComment: "x".repeat(1001) }) });
    expect(await json(tooLong)).toMatchObject({ reason: "comment_too_long", consumerMessage: "El comentario de la reclamación puede tener como máximo 1000 caracteres." });
    const stranger = await makeUser(services, { tag: "results-stranger" });
    const notTheirs = await api(`/testresult/testresultpropertyvalues/?sfTestResultId=${invalid.sF_TestResultId}`, stranger, { headers: { "accept-language": "es" } });
    expect(notTheirs.status).toBe(404);
    expect(await json(notTheirs)).toMatchObject({ reason: "not_found", consumerMessage: "No encontramos este resultado de prueba." });
  });
});

// ---------------------------------------------------------------- profile changes

describe("re-matching after modifycore", () => {
  it("updates validity, property values and the window when the profile changes, both ways", async () => {
    const user = await withProfile({ firstName: "Ada", lastName: "Byron", dob: "1990-12-10" });
    const collected = minute(hoursAgo(6));
    const answer = await json(await upload(user, await harborviewPdf({ ...ADA, middleNames: "Augusta", collectedAt: collected })));
    expect((await results(user))[0]).toMatchObject({ valid: 0 });
    expect((await safeWindow(user)).strongSafetyDate).toBeNull();

    const modify = (lastName: string) =>
      modifyCore(services, user, { identityUserId: user.sub, firstName: "Ada", middleName: "", lastName, dob: "1990-12-10", postalCode: "94105" });
    const married = await modify("Lovelace");
    expect(married.status).toBe(200);
    // modifycore's own answer already carries the new window.
    expect((await json(married)).consumer.strongSafetyDate).toBe(iso(new Date(collected.getTime() + 48 * HOUR)));
    expect((await results(user))[0]).toMatchObject({ valid: 1, strongSafetyDate: iso(new Date(collected.getTime() + 48 * HOUR)) });
    expect((await json(await propertyValues(user, answer.sF_TestResultId))).every((p: any) => p.matchInfo === null)).toBe(true);

    expect((await modify("King")).status).toBe(200);
    expect((await results(user))[0]).toMatchObject({ valid: 0, strongSafetyDate: null });
    expect((await json(await propertyValues(user, answer.sF_TestResultId)))[1]).toMatchObject({ name: "Last Name", matchInfo: "PDF: LOVELACE; profile: King" });
    expect(await safeWindow(user)).toMatchObject({ strongSafetyDate: null, weakSafetyDate: null, safeWindowDescription: null });
  });
});

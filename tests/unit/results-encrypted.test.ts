// Encrypted uploads (docs/architecture/results-pipeline.md §5 steps 1-2; docs/product/labs.md §10.5): a lab report that
// needs a password to open is refused by the worker as "encrypted"; one that opens without a
// password but is encrypted (an owner password only) is read, then refused by originality as
// "encrypted" with its own consumerMessage. The fixtures are each lab's genuine report with
// encryption as the only difference; the pool tests use real worker threads.
import * as cantoo from "@cantoo/pdf-lib";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { rejectionMessages } from "../../services/consumer/results/errors.ts";
import { recogniseIssuer } from "../../services/consumer/results/issuer.ts";
import { checkOriginality } from "../../services/consumer/results/originality.ts";
import { createPdfPool } from "../../services/consumer/results/pool.ts";
import type { PdfPool } from "../../services/consumer/results/pool.ts";
import { REPORT_OWNER_PASSWORD, REPORT_PASSWORD, encryptPdf, harborviewPdf, labPdf, ownerPasswordOnlyPdf, passwordProtectedPdf } from "../fixtures/index.ts";
import type { LabId } from "../fixtures/index.ts";
import { parseAnswer, parseFixture } from "../fixtures/parse.ts";
import { rejectionOf, rejectionOfAsync } from "./support.ts";

const o = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", collectedAt: new Date("2026-11-20T16:15:00Z") };
const LABS: LabId[] = ["harborview", "meridian", "cascade"];
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

describe("encrypted report fixtures", () => {
  it("are the lab's report, encrypted and nothing else: one revision, same text and metadata", async () => {
    for (const lab of LABS) {
      const plain = await labPdf(lab, o);
      const original = await parseFixture(plain);
      expect(original.encrypted, lab).toBe(false);
      for (const bytes of [await passwordProtectedPdf(o, lab), await ownerPasswordOnlyPdf(o, lab)]) {
        const text = latin1(bytes);
        expect(text, lab).toMatch(/\/Encrypt \d+ 0 R/);
        expect(text, lab).toMatch(/\/V 5\s+\/R 6/); // AES-256
        expect(text.split("%%EOF")).toHaveLength(2);
        // No string of the lab's metadata is left in the clear.
        expect(text, lab).not.toContain("D:2026");
      }
      // Opened without a password, the owner-only file reads exactly as the original.
      expect(await parseFixture(await ownerPasswordOnlyPdf(o, lab)), lab).toEqual({ ...original, encrypted: true });
    }
  });

  it("the password-protected one opens only with its password; the other without one", async () => {
    const locked = await passwordProtectedPdf(o);
    await expect(cantoo.PDFDocument.load(locked, { password: "" })).rejects.toThrow();
    const opened = await cantoo.PDFDocument.load(locked, { password: REPORT_PASSWORD, updateMetadata: false });
    expect(opened.getPageCount()).toBe(1);
    const ownerOnly = await cantoo.PDFDocument.load(await ownerPasswordOnlyPdf(o), { password: "", updateMetadata: false });
    expect(ownerOnly.getPageCount()).toBe(1);
    expect(REPORT_OWNER_PASSWORD).not.toBe(REPORT_PASSWORD);
  });
});

describe("encrypted reports in the worker and originality", () => {
  it("a report that needs a password: the worker answers encrypted", async () => {
    for (const lab of LABS) expect(await parseAnswer(await passwordProtectedPdf(o, lab)), lab).toEqual({ ok: false, reason: "encrypted" });
  });

  it("a report with an owner password only: read, recognised as the lab's, then refused by originality as encrypted", async () => {
    for (const lab of LABS) {
      const pdf = await parseFixture(await ownerPasswordOnlyPdf(o, lab));
      // Nothing but the encryption would give it away: the issuer step accepts it.
      expect(() => recogniseIssuer(pdf), lab).not.toThrow();
      const err = rejectionOf(() => checkOriginality(pdf));
      expect(err?.reason, lab).toBe("encrypted");
      expect(err?.status).toBe(422);
      expect(err?.consumerMessage).toBe(rejectionMessages.locked());
      // The same report unencrypted passes.
      expect(() => checkOriginality({ ...pdf, encrypted: false })).not.toThrow();
    }
  });

  it("older ciphers are refused the same way (AES-128, RC4-128)", async () => {
    const plain = await harborviewPdf(o);
    for (const algorithm of ["AES-128", "RC4-128"] as const) {
      expect(await parseAnswer(await encryptPdf(plain, { userPassword: REPORT_PASSWORD, ownerPassword: REPORT_OWNER_PASSWORD, algorithm })), algorithm).toEqual({
        ok: false,
        reason: "encrypted",
      });
      const pdf = await parseFixture(await encryptPdf(plain, { userPassword: "", ownerPassword: REPORT_OWNER_PASSWORD, algorithm }));
      expect(pdf.producer, algorithm).toMatch(/^iText/);
      expect(rejectionOf(() => checkOriginality(pdf))?.reason, algorithm).toBe("encrypted");
    }
  });

  it("the two consumerMessages say what went wrong and what to do", () => {
    expect(rejectionMessages.encrypted()).toMatch(/protected with a password.*Upload the PDF from your testing company without a password\.$/);
    expect(rejectionMessages.locked()).toMatch(/^This PDF was encrypted .* Upload the original PDF exactly as you received it from your testing company\.$/);
    expect(rejectionMessages.locked()).not.toBe(rejectionMessages.encrypted());
  });
});

describe("encrypted reports in the PDF worker pool", () => {
  const pools: PdfPool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it("refuses a password-protected report (parse and render) with a consumerMessage, then reads the next file", async () => {
    const pool = createPdfPool(pino({ level: "silent" }), { threads: 1 });
    pools.push(pool);
    const locked = await passwordProtectedPdf(o);
    const parsed = await rejectionOfAsync(pool.parse(locked.slice()));
    expect(parsed).toMatchObject({ reason: "encrypted", status: 422, consumerMessage: rejectionMessages.encrypted() });
    const rendered = await rejectionOfAsync(pool.render(locked.slice()));
    expect(rendered).toMatchObject({ reason: "encrypted", status: 422 });
    // The worker answered; it did not crash or run out its budget.
    const ownerOnly = await pool.parse(await ownerPasswordOnlyPdf(o));
    expect(ownerOnly).toMatchObject({ encrypted: true, pageCount: 1, revisions: 1, producer: expect.stringMatching(/^iText/) });
    expect(rejectionOf(() => checkOriginality(ownerOnly))?.consumerMessage).toBe(rejectionMessages.locked());
    expect(await pool.parse(await harborviewPdf(o))).toMatchObject({ encrypted: false, revisions: 1 });
  });
});

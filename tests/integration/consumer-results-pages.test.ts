// Every page of a result (contracts/consumer.ts getImage `page` and TestResult `pageCount`,
// extensions of docs/product/calls.md §7; services/consumer/schema/0005_result_pages.ts): the original
// PDF is kept, page 1 is drawn at upload, a later page on its first request and then kept. Real
// identity authority, consumer API, worker pool and PGlite; generated lab PDFs.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../../lib/db/database.ts";
import { migrateToLatest } from "../../lib/db/migrate.ts";
import { CONSUMER_MIGRATION_TABLE, consumerMigrations } from "../../services/consumer/schema/migrations.ts";
import { cascadePdf, harborviewPdf } from "../fixtures/index.ts";
import { callApi, currentResults, jpegSize, json, makePerson, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const HOUR = 3600_000;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
let services: Services;

beforeAll(async () => {
  services = await startServices({ client: { clientId: "safewindow-web", clientSecret: "result-pages-secret-0123456789" }, tmpPrefix: "pages-" });
});

afterAll(async () => {
  await services?.close();
});

const withProfile = () => makePerson(services, { ...ADA, postalCode: "94105" }, { tag: "pages" });
const hoursAgo = (n: number) => new Date(Date.now() - n * HOUR);

async function upload(user: TestUser, bytes: Uint8Array): Promise<string> {
  const body = new FormData();
  body.append("multipartData", new Blob([bytes.slice()], { type: "application/pdf" }), "result.pdf");
  const res = await callApi(services, "/testresult/addtestresultmultipart/", user, { method: "POST", body });
  const answer = await json(res);
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer.sF_TestResultId as string;
}

/** GET /testresult/getimage/ with a raw query after testResultId. */
const image = (user: TestUser, id: string, more = "") => callApi(services, `/testresult/getimage/?testResultId=${encodeURIComponent(id)}${more}`, user);

async function jpegOf(res: Response): Promise<Buffer> {
  expect(res.status).toBe(200);
  const jpeg = Buffer.from(await json<string>(res), "base64");
  expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  return jpeg;
}

const pageRows = (id: string) =>
  services.consumer.db.selectFrom("consumer_test_result_images").select(["page", "jpeg"]).where("result_id", "=", id).orderBy("page").execute();

describe("every page of a result", () => {
  it("keeps the PDF, counts its pages, and draws page 2 on its first request, once", async () => {
    const user = await withProfile();
    const bytes = await cascadePdf({ ...ADA, collectedAt: hoursAgo(3), variation: { secondPage: true, extraText: true } });
    const id = await upload(user, bytes);
    expect((await currentResults(services, user))[0]).toMatchObject({ sF_TestResultId: id, pageCount: 2 });
    const kept = await services.consumer.db.selectFrom("consumer_test_result_files").select("pdf").where("result_id", "=", id).executeTakeFirstOrThrow();
    expect(Buffer.from(kept.pdf).equals(Buffer.from(bytes))).toBe(true);
    expect((await pageRows(id)).map((r) => r.page)).toEqual([1]);

    const first = await jpegOf(await image(user, id));
    expect((await jpegOf(await image(user, id, "&page=1"))).equals(first)).toBe(true);
    // Five first requests for page 2 at once: all answer the same page; one row is kept.
    const seconds = await Promise.all(Array.from({ length: 5 }, () => image(user, id, "&page=2").then(jpegOf)));
    const second = seconds[0]!;
    expect(second.equals(first)).toBe(false);
    const { width, height } = jpegSize(second);
    expect(Math.max(width / 1250, height / 1000)).toBeGreaterThan(0.99);
    const rows = await pageRows(id);
    expect(rows.map((r) => r.page)).toEqual([1, 2]);
    for (const other of seconds) expect(other.equals(Buffer.from(rows[1]!.jpeg))).toBe(true);
  });

  it("answers 404 page_not_found past the last page and 400 for a page that is not a number", async () => {
    const user = await withProfile();
    const id = await upload(user, await harborviewPdf({ ...ADA, collectedAt: hoursAgo(2) }));
    expect((await currentResults(services, user))[0]).toMatchObject({ pageCount: 1 });
    const past = await image(user, id, "&page=2");
    expect(past.status).toBe(404);
    expect(await json(past)).toEqual({ success: false, reason: "page_not_found", consumerMessage: "This test result has no page 2 to show." });
    for (const bad of ["&page=0", "&page=-1", "&page=1.5", "&page=abc", "&page=", "&page=2&page=2", "&page=99999"]) {
      const res = await image(user, id, bad);
      expect(res.status, bad).toBe(400);
      expect((await json(res)).error, bad).toBe("invalid_request");
    }
    expect((await pageRows(id)).map((r) => r.page)).toEqual([1]);
  });

  it("another user's result is not found, whatever the page, and nothing is drawn for them", async () => {
    const owner = await withProfile();
    const stranger = await withProfile();
    const id = await upload(owner, await cascadePdf({ ...ADA, collectedAt: hoursAgo(4), variation: { secondPage: true } }));
    for (const page of ["", "&page=1", "&page=2", "&page=3"]) {
      const res = await image(stranger, id, page);
      expect(res.status, page).toBe(404);
      expect(await json(res), page).toMatchObject({ reason: "not_found" });
    }
    expect((await pageRows(id)).map((r) => r.page)).toEqual([1]);
  });

  it("a result stored before the PDF was kept serves page 1 only and says no page count", async () => {
    const user = await withProfile();
    const id = await upload(user, await cascadePdf({ ...ADA, collectedAt: hoursAgo(5), variation: { secondPage: true } }));
    // What 0005_result_pages.ts leaves of such a result: no kept PDF, no page count.
    await services.consumer.db.deleteFrom("consumer_test_result_files").where("result_id", "=", id).execute();
    // page_count is written once at upload, so the table's type has no update for it.
    await (services.consumer.db as Kysely<any>).updateTable("consumer_test_results").set({ page_count: null }).where("id", "=", id).execute();
    const [listed] = await currentResults(services, user);
    expect(listed.sF_TestResultId).toBe(id);
    expect(listed).not.toHaveProperty("pageCount");
    await jpegOf(await image(user, id));
    const later = await image(user, id, "&page=2");
    expect(later.status).toBe(404);
    expect(await json(later)).toMatchObject({ reason: "page_not_found" });
  });
});

describe("migration 0005_result_pages", () => {
  it("keeps the stored page images as page 1, and adds one row per page from then on", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "pages-migration-"));
    const db = await createDatabase<any>({ dataDir, name: "consumer" });
    try {
      const before = Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0005"));
      await migrateToLatest(db, before, CONSUMER_MIGRATION_TABLE);
      const now = new Date();
      const consumerId = randomUUID();
      await db
        .insertInto("consumer_profiles")
        .values({ id: consumerId, identity_user_id: randomUUID(), first_name: "Ada", last_name: "Lovelace", dob: "1990-12-10", postal_code: "94105", safe_window_id: "0ADA0ADA", created_at: now, updated_at: now })
        .execute();
      const resultId = randomUUID();
      await db
        .insertInto("consumer_test_results")
        .values({
          id: resultId, consumer_id: consumerId, file_sha256: "a".repeat(64), file_size: 1000, lab_id: "harborview",
          testing_company_name: "Harborview Clinical Laboratories, LLC", public_name: "Harborview Labs", disease_name: "COVID-19",
          test_name: "SARS-CoV-2 RNA, Qualitative NAAT", method: "NAAT", result: "Negative", result_text: "NOT DETECTED",
          collected_at: now, collected_text: "collected", patient_given_names: "ADA", patient_last_name: "LOVELACE", patient_dob: "1990-12-10",
          valid: true, window_description: "PCR (NAAT)", created_at: now, updated_at: now,
        })
        .execute();
      await db.insertInto("consumer_test_result_images").values({ result_id: resultId, jpeg: new Uint8Array([1, 2, 3]), width: 1, height: 1 }).execute();

      const through0005 = Object.fromEntries(Object.entries(consumerMigrations).filter(([name]) => name < "0006"));
      expect(await migrateToLatest(db, through0005, CONSUMER_MIGRATION_TABLE)).toEqual(["0005_result_pages"]);
      expect(await db.selectFrom("consumer_test_result_images").select(["result_id", "page", "jpeg"]).execute()).toEqual([
        { result_id: resultId, page: 1, jpeg: new Uint8Array([1, 2, 3]) },
      ]);
      expect(await db.selectFrom("consumer_test_results").select("page_count").execute()).toEqual([{ page_count: null }]);
      await db.insertInto("consumer_test_result_images").values({ result_id: resultId, page: 2, jpeg: new Uint8Array([4]), width: 1, height: 1 }).execute();
      // One row per page: the same page again is refused, a page 0 too.
      await expect(db.insertInto("consumer_test_result_images").values({ result_id: resultId, page: 2, jpeg: new Uint8Array([5]), width: 1, height: 1 }).execute()).rejects.toThrow();
      await expect(db.insertInto("consumer_test_result_images").values({ result_id: resultId, page: 0, jpeg: new Uint8Array([5]), width: 1, height: 1 }).execute()).rejects.toThrow();
      // The kept PDF goes with its result.
      await db.insertInto("consumer_test_result_files").values({ result_id: resultId, pdf: new Uint8Array([0x25]) }).execute();
      await db.deleteFrom("consumer_test_results").where("id", "=", resultId).execute();
      expect(await db.selectFrom("consumer_test_result_files").selectAll().execute()).toEqual([]);
      expect(await db.selectFrom("consumer_test_result_images").selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

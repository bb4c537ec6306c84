/**
 * Every query the reference services and the session store make can be answered through an index
 * (docs/architecture/README.md §3; the plans are written to bench/query-plans.results.md).
 *
 * The identity authority, the consumer API, the business API and the session store run on one
 * in-memory PGlite, as server.ts runs them on its embedded database, through a Kysely whose log
 * keeps every query with its parameters. A journey over HTTP makes them run their queries:
 * accounts, tokens, the reset mail, profiles, an upload through the PDF pipeline, results, the
 * window, follows, the search, a dispute, venues (a subscription, roles at a location, the search
 * by distance, a check-in, a rating, billing), sessions. Then each distinct query is planned with `EXPLAIN` under
 * `enable_seqscan = off`: on a few rows the planner prefers a sequential scan whatever the
 * indexes, so the question asked is whether an index *could* serve the query. A query whose plan
 * still reads a table sequentially has no index for its condition, and fails the test, unless it
 * is listed in `fullReads` with the reason it reads the whole table.
 *
 * `QUERY_PLANS_OUT=<file>` writes the plans as Markdown (`npm run bench:queries` writes
 * bench/query-plans.results.md).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseSessionStore, migrateSessionTable } from "../../app/server/session-store.server.ts";
import { startBusinessService, type BusinessService } from "../../services/business/server.ts";
import { startConsumerService, type ConsumerService } from "../../services/consumer/server.ts";
import { openPglite } from "../../lib/db/database.ts";
import { startIdentityService, type IdentityService } from "../../services/identity/server.ts";
import { harborviewPdf } from "../fixtures/index.ts";
import { accessToken, callApi, contractFetch, makePerson, makeUser, type Person, type Services } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "query-plans-secret-0123456789" };
const REVIEWER = "plans-reviewer@example.com";

/**
 * Queries that read a whole table by design, each with its reason. Matched against the query's SQL.
 */
const fullReads: { pattern: RegExp; reason: string }[] = [
  { pattern: /from "(identity|consumer|business|app)_migration(_lock)?"/, reason: "the migrator reads its own small table at start" },
  { pattern: /from "business_application_roles" where "name" = \$1/, reason: "the product's two application roles, looked up by name" },
  { pattern: /from "identity_signing_keys"/, reason: "the authority publishes all its signing keys (a handful) in its JWKS" },
  {
    pattern: /^select "id", "consumer_id", "lab_id", "patient_last_name", "patient_given_names", "patient_dob", "collected_at", "test_name" from "consumer_test_results" order by "created_at", "id"$/,
    reason: "consumer migration 0004 keys every stored result once, when it is applied",
  },
  { pattern: /^update consumer_test_results set proof_kind = 'link' where fetched_from is not null$/, reason: "consumer migration 0010 marks the results fetched by link once, when it is applied" },
  { pattern: /^update consumer_test_result_property_values\s+set match_info = case/, reason: "consumer migration 0011 rewrites the Manual Review values once, when it is applied" },
  {
    pattern: /^select "id", "name", "match_info" from "consumer_test_result_property_values" where "match_info" is not null$/,
    reason: "consumer migration 0014 reads every stored finding once, when it is applied, to store it as values",
  },
  {
    pattern: /^select "id", "proof_disagreement" from "consumer_test_results" where "proof_disagreement" is not null$/,
    reason: "consumer migration 0014 reads every signed-code disagreement once, when it is applied, to store it as values",
  },
  { pattern: /^select "id", "data" from "app_session"$/, reason: "session migration 0003 gives every session its user once, when it is applied (at most 12 hours of sessions)" },
];

/** Each distinct SQL text the services ran, with the parameters of its first run. */
const queries = new Map<string, readonly unknown[]>();
let pglite: PGlite;
let db: Kysely<any>;
let identity: IdentityService;
let consumer: ConsumerService;
let business: BusinessService;
let services: Services;
const dirs: string[] = [];

beforeAll(async () => {
  dirs.push(await mkdtemp(path.join(tmpdir(), "sw-plans-id-")), await mkdtemp(path.join(tmpdir(), "sw-plans-")));
  // Opened as server.ts opens its embedded database (the same settings and type parsers).
  pglite = await openPglite(path.join(dirs[1]!, "db"));
  db = new Kysely<any>({
    dialect: new PGliteDialect({ pglite }),
    log: (event) => {
      if (event.level === "query" && !queries.has(event.query.sql)) queries.set(event.query.sql, event.query.parameters);
    },
  });
  const logger = pino({ level: "silent" });
  identity = await startIdentityService({ dataDir: dirs[0]!, db, publicUrl: "http://localhost:3000", clients: [CLIENT], logger });
  business = await startBusinessService({ dataDir: dirs[1]!, db, identityUrl: identity.url, logger });
  consumer = await startConsumerService({ dataDir: dirs[1]!, db, identityUrl: identity.url, logger, reviewers: [REVIEWER], businessUrl: business.url });
  await migrateSessionTable(db);
  services = { identity, consumer, identityDataDir: dirs[0]!, consumerDataDir: dirs[1]!, identityUrl: identity.url, client: CLIENT, close: async () => {} } as unknown as Services;
}, 60_000);

afterAll(async () => {
  await consumer?.close();
  await business?.close();
  await identity?.close();
  await db.destroy();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** GET or POST a consumer call as `who`; asserts a 2xx. */
async function call(who: Person, pathAndQuery: string, init: RequestInit = {}): Promise<any> {
  const res = await callApi(services, pathAndQuery, who, init);
  expect(res.status, pathAndQuery).toBeLessThan(300);
  return res.headers.get("content-type")?.includes("json") ? res.json() : res.text();
}

/** The journey that makes every service run its queries. */
async function journey(): Promise<void> {
  // Accounts and tokens: registration, password grant, refresh-free token checks, a reset request.
  const grace = await makePerson(services, { firstName: "Grace", lastName: "Hopper", dob: "1986-12-09", postalCode: "10001" });
  const alan = await makePerson(services, { firstName: "Alan", lastName: "Turing", dob: "1980-06-23", postalCode: "94105" });
  const client = await accessToken(services, { grant_type: "client_credentials", scope: "identity.api" });
  const reset = await contractFetch(`${identity.url}/api/account/requestpasswordchange?${new URLSearchParams({ email: grace.email, requestedUri: "http://localhost:3000/resetpassword" })}`, {
    headers: { authorization: `Bearer ${client}` },
  });
  expect(reset.status).toBeLessThan(500);
  await makeUser(services, { tag: "plans" });

  // Profiles and results: uploads through the pipeline (one valid, one made out to a misspelt
  // name, stored invalid), the lists, the detail, the window, a dispute of the invalid one.
  await call(grace, "/consumer");
  const collectedAt = new Date(Date.now() - 3_600_000);
  for (const lastName of ["Hopper", "Hoper"]) {
    const form = new FormData();
    const pdf = await harborviewPdf({ firstName: "Grace", lastName, dob: "1986-12-09", collectedAt });
    form.append("multipartData", new Blob([pdf.slice()], { type: "application/pdf" }), "result.pdf");
    await call(grace, "/testresult/addtestresultmultipart/", { method: "POST", body: form });
  }
  const results = (await call(grace, "/testresult/getcurrentusertestresults/")) as { sF_TestResultId: string; valid: boolean | number }[];
  expect(results.map((r) => Boolean(r.valid)).sort()).toEqual([false, true]);
  const invalid = results.find((r) => !r.valid)!.sF_TestResultId;
  await call(grace, `/testresult/testresultpropertyvalues/?sfTestResultId=${encodeURIComponent(invalid)}`);
  await call(grace, "/consumer/getsafewindow");
  await call(grace, "/testresult/dispute/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sF_TestResultId: invalid, disputeComment: "The lab misspelt my name." }),
  });

  // Dispute reviews: the queue, one dispute, its page, the decision (and its mail), the trail.
  const reviewer = await makeUser(services, { email: REVIEWER, confirmed: true });
  await callApi(services, "/consumer/getpermissions", reviewer);
  for (const path of ["/testresult/disputequeue/", `/testresult/disputequeue/?testResultId=${invalid}`, `/testresult/disputeimage/?testResultId=${invalid}`, "/testresult/disputereviews/"]) {
    expect((await callApi(services, path, reviewer)).status, path).toBe(200);
  }
  const decided = await callApi(services, "/testresult/reviewdispute/", reviewer, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sF_TestResultId: invalid, decision: "accept", responseComment: "The typo is the lab's." }),
  });
  expect(decided.status).toBe(200);

  // Follows: search by name, e-mail and product ID, request, confirm, both lists, the status.
  await call(alan, `/consumersubscription/searchpublishers/?searchString=${encodeURIComponent("Grace Hopper")}`);
  await call(alan, `/consumersubscription/searchpublishers/?searchString=${encodeURIComponent(grace.email)}`);
  await call(alan, `/consumersubscription/searchpublishers/?searchString=${encodeURIComponent(grace.profile.safeWindowId!)}`);
  const requested = (await call(alan, `/consumersubscription/requestsubscription/?sfConsumerId=${encodeURIComponent(grace.profile.sF_ConsumerId)}`)) as {
    sF_ConsumerSubscriptionId: string;
  };
  await call(grace, "/consumersubscription/subscribers/");
  await call(grace, `/consumersubscription/confirmsubscriptionrequest/?sfConsumerSubscriptionId=${encodeURIComponent(requested.sF_ConsumerSubscriptionId)}`);
  await call(alan, "/consumersubscription/publishers/");
  await call(alan, `/consumersubscription/subscriptionstatus/?sfConsumerId=${encodeURIComponent(grace.profile.sF_ConsumerId)}`);

  // Venues: a subscription (its group, roles, invoice), a role at a new location, the checks, the
  // group and its roles, billing, a retry and a status change; the search by distance, a check-in
  // code, its check, the check-in, the visits, a rating, the data export; a location role taken back.
  const owner = await makePerson(services, { firstName: "Vera", lastName: "Venue", dob: "1979-03-03", postalCode: "98101" }, { confirmed: true });
  const biz = (who: Person, pathAndQuery: string, body?: unknown) =>
    contractFetch(`${business.url}${pathAndQuery}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${who.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(async (res) => {
      expect(res.status, pathAndQuery).toBeLessThan(300);
      return res.json();
    });
  const subscribed = await biz(owner, "/subscription/create/", { businessName: "Plans Bar", address: "1 Main St", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550100", plan: "monthly" });
  const groupId = subscribed.hospitalityGroup.hospitalityGroupId as string;
  const app = await biz(owner, "/application/getbyname?applicationName=SafeWindow");
  const roles = (await biz(owner, `/application/getapplicationroles/?applicationId=${app.applicationId}`)) as { applicationRoleId: string; scope: string }[];
  const locationRole = roles.find((r) => r.scope === "location")!.applicationRoleId;
  const staff = await biz(owner, "/applicationuserrolelocation/buildandcreate/", {
    hospitalityGroupId: groupId,
    applicationRoleId: locationRole,
    email: "door@example.com",
    location: { name: "Plans Taproom", address: "1 Main St", city: "Seattle", state: "WA", postalCode: "98101", phone: "2065550101" },
  });
  await biz(owner, "/applicationuserrolelocation/update/", { applicationUserRoleLocationId: staff.applicationUserRoleLocationId, location: { name: "Plans Taproom & Grill" } });
  await biz(owner, "/applicationsecurity/saveuserinfopartial/", { firstName: "Vera" });
  for (const path of [
    "/applicationsecurity/getuserinfo/",
    "/applicationsecurity/isuserlicensedadministrator/",
    `/applicationsecurity/isuserlocationadministrator/?locationId=${staff.locationId}`,
    `/hospitalitygroup/?hospitalityGroupId=${groupId}`,
    "/hospitalitygroup/getadministratorhospitalitygroups/",
    `/hospitalitygroup/getusersandroles/?hospitalityGroupId=${groupId}`,
  ]) {
    await biz(owner, path);
  }
  const billing = await biz(owner, `/subscription/getbillingdetails/?hospitalityGroupId=${groupId}`);
  await biz(owner, "/subscription/retryinvoice/", { invoiceId: billing.invoices[0].invoiceId });
  await call(grace, "/search/?zip=98101&miles=10");
  const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const { code } = await call(grace, "/checkin/issuecode/", json({}));
  await call(grace, "/checkin/issuecode/", json({}));
  const stale = code as string;
  const fresh = (await call(grace, "/checkin/issuecode/", json({}))).code as string;
  expect((await callApi(services, "/checkin/redeemcode/", owner, json({ code: stale, locationId: staff.locationId }))).status).toBe(409);
  const check = await call(owner, "/checkin/redeemcode/", json({ code: fresh, locationId: staff.locationId }));
  await call(owner, "/checkin/checkin/", json({ visitId: check.visitId }));
  await call(grace, "/locationvisit/getcurrentuservisits/");
  await call(grace, "/locationvisit/setrating/", json({ visitId: check.visitId, rating: 5 }));
  await call(grace, "/consumer/export");
  await biz(owner, "/subscription/updatestatus/", { subscriptionId: subscribed.subscription.subscriptionId, status: "paused" });
  await biz(owner, "/applicationuserrolelocation/delete/", { applicationUserRoleLocationId: staff.applicationUserRoleLocationId });
  await biz(owner, "/applicationsecurity/deleteuserinfo/", {});

  // Deleting an account: its reset request, then the deletion (the outbox rows and requests naming it).
  const leaving = await makeUser(services, { tag: "plans-deleted" });
  await contractFetch(`${identity.url}/api/account/requestpasswordchange?${new URLSearchParams({ email: leaving.email })}`, { headers: { authorization: `Bearer ${client}` } });
  const deleted = await contractFetch(`${identity.url}/api/account/delete`, {
    method: "POST",
    headers: { authorization: `Bearer ${leaving.token}`, "content-type": "application/json" },
    body: JSON.stringify({ password: leaving.password }),
  });
  expect(await deleted.json()).toBe(true);

  // Sessions: create, read, update, the generation, delete, the purge.
  const sessions = databaseSessionStore(db);
  const sessionId = await sessions.createData({ user: grace.email });
  await sessions.readData(sessionId);
  await sessions.readSession(sessionId);
  await sessions.updateData(sessionId, { user: grace.email, flash: "x" });
  await sessions.userGeneration(grace.email);
  await sessions.nextUserGeneration(grace.email);
  await sessions.deleteData(sessionId);
  await sessions.createData({ userName: grace.email });
  await sessions.deleteUserSessions(grace.email);
  await sessions.purgeExpired();
}

interface Planned {
  sql: string;
  plan: string;
  sequential: string[];
  fullRead?: string;
}

describe("query plans of the reference services and the session store", () => {
  it("can answer every query through an index (EXPLAIN with enable_seqscan off)", async () => {
    await journey();
    const planned: Planned[] = [];
    await pglite.exec("SET enable_seqscan = off");
    for (const [sql, parameters] of queries) {
      if (!/^\s*(select|update|delete|insert|with)\b/i.test(sql)) continue;
      const fullRead = fullReads.find((f) => f.pattern.test(sql))?.reason;
      let rows: { "QUERY PLAN": string }[];
      try {
        ({ rows } = await pglite.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, [...parameters]));
      } catch (error) {
        // A migration's one-off query on a column a later migration dropped (0011 and 0014 on match_info) cannot be
        // planned any more; only a whole-table read by design, listed with its reason, may be one.
        if (!fullRead || !/column "\w+" does not exist/.test((error as Error).message)) throw error;
        planned.push({ sql, plan: "(not planned: a later migration dropped a column it read)", sequential: [], fullRead });
        continue;
      }
      const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
      const sequential = [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!);
      planned.push({ sql, plan, sequential, fullRead });
    }
    await pglite.exec("RESET enable_seqscan");

    if (process.env.QUERY_PLANS_OUT) {
      const { rows: version } = await pglite.query<{ server_version: string }>("show server_version");
      await writeFile(process.env.QUERY_PLANS_OUT, report(planned, version[0]!.server_version));
    }
    // The journey reached every part: accounts, results, follows, sessions.
    for (const table of [
      "identity_users",
      "identity_outbox",
      "consumer_test_results",
      "consumer_subscriptions",
      "consumer_dispute_reviews",
      "consumer_outbox",
      "consumer_checkin_codes",
      "consumer_visits",
      "consumer_checkin_guesses",
      "business_users",
      "business_locations",
      "business_user_role_locations",
      "business_subscriptions",
      "business_invoices",
      "app_session",
    ]) {
      expect(planned.some((p) => p.sql.includes(`"${table}"`)), table).toBe(true);
    }
    // ... including the dispute and the confirmation.
    expect(planned.some((p) => /^update "consumer_test_results" set .*"dispute/.test(p.sql))).toBe(true);
    expect(planned.some((p) => /^update "consumer_subscriptions" set .*"confirmed"/.test(p.sql))).toBe(true);
    const unindexed = planned.filter((p) => p.sequential.length > 0 && !p.fullRead).map((p) => `${p.sql}\n${p.plan}`);
    expect(unindexed, unindexed.join("\n\n")).toEqual([]);
  }, 120_000);
});

/** The plans as Markdown, one section per query. */
function report(planned: Planned[], serverVersion: string): string {
  const lines = [
    "# Query plans of the reference services and the session store",
    "",
    `Written by \`npm run bench:queries\` (tests/integration/query-plans.test.ts) on ${new Date().toISOString()}: every distinct query the identity authority, the consumer API, the business API and the session store made during the test's journey, planned by PGlite (PostgreSQL ${serverVersion}) with \`EXPLAIN\` under \`enable_seqscan = off\`, so that a sequential scan shows a condition no index serves. ${planned.length} queries; ${planned.filter((p) => p.sequential.length > 0).length} read a table sequentially, each a whole-table read by design (its reason given).`,
    "",
  ];
  planned.forEach((p, n) => {
    lines.push(`## ${n + 1}. ${p.sequential.length > 0 ? `sequential (${p.fullRead ?? "NOT EXPLAINED"})` : "indexed"}`, "", "```sql", p.sql, "```", "", "```", p.plan, "```", "");
  });
  return lines.join("\n");
}

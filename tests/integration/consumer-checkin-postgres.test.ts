// Check-in code guesses (docs/security/limits.md "Check-in code guesses") with two consumer API processes on
// one PostgreSQL server (a throwaway cluster of Debian's postgresql, tests/integration/postgres.ts):
// this test's own, and services/consumer/main.ts as a child process. Guesses entered on either count
// in one limit, per caller and per location, whether sent one by one or at once, and the count
// survives a restart of the child.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASS_SECRET_FILE } from "../../services/consumer/pass/keys.ts";
import { GUESS_WINDOW_MS } from "../../services/consumer/guesses.ts";
import { startPostgres } from "./postgres.ts";
import type { PostgresServer } from "./postgres.ts";
import { listeningUrl, makeUser, runMain, startServices } from "./support.ts";
import type { MainProcess, Services, TestUser } from "./support.ts";
import { newGroup } from "./venue-groups.ts";
import type { TestGroup } from "./venue-groups.ts";

const CLIENT = { clientId: "web", clientSecret: "pg-checkin-secret-0123456789abcd" };
const MAIN = path.resolve("services/consumer/main.ts");

let pg: PostgresServer;
let services: Services;
let dataDir: string;
let child: MainProcess | undefined;

beforeAll(async () => {
  pg = await startPostgres();
  services = await startServices({ client: CLIENT, tmpPrefix: "consumer-checkin-pg-", databaseUrl: pg.databaseUrl, pinIssuer: true, business: true });
  dataDir = await mkdtemp(path.join(tmpdir(), "consumer-checkin-pg-child-"));
}, 120_000);

afterAll(async () => {
  await stopChild();
  await services?.close();
  await pg?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Starts services/consumer/main.ts on the same PostgreSQL, identity authority and business API; its URL. */
async function startChild(): Promise<string> {
  child = runMain(MAIN, {
    PORT: "0",
    DATA_DIR: dataDir,
    DATABASE_URL: pg.databaseUrl,
    IDENTITY_URL: services.identityUrl,
    IDENTITY_ISSUER: services.identity.issuer,
    BUSINESS_API_URL: services.business!.url,
    LOG_LEVEL: "info",
    // Replicas of one database share the secret its pass keys are sealed with.
    CONSUMER_PASS_SECRET: readFileSync(path.join(services.consumerDataDir, PASS_SECRET_FILE), "utf8").trim(),
  });
  return listeningUrl(child, "consumer API listening");
}

async function stopChild(): Promise<void> {
  if (!child) return;
  const running = child;
  child = undefined;
  if (running.child.exitCode === null) running.child.kill("SIGTERM");
  expect(await running.exited).toBe(0);
}

let guesses = 0;
/** A code nobody was given (a series of this file's own). */
const guess = () => `V${(guesses++).toString(32).toUpperCase().replace(/[ILOU]/g, "X").padStart(5, "0")}`;
/** The status of `admin` entering `code` (default a guess) at `locationId` on the consumer API at `url`. */
async function enter(url: string, admin: TestUser, locationId: string, code = guess()): Promise<Response> {
  return fetch(`${url}/checkin/redeemcode/`, { method: "POST", headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ code, locationId }) });
}
async function adminOf(group: TestGroup, locationId?: string): Promise<TestUser> {
  const admin = await makeUser(services, { confirmed: true });
  await group.addAdministrator(admin.email, locationId);
  return admin;
}
/** Waits out the current counting window's last minute, so that a test's attempts fall in one window (guesses.ts). */
async function awayFromWindowEdge(): Promise<void> {
  const left = GUESS_WINDOW_MS - (Date.now() % GUESS_WINDOW_MS);
  if (left < 60_000) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

describe("check-in code guesses on two consumer API processes and one PostgreSQL", () => {
  it("counts one limit per caller and per location over both processes, at once too, and keeps it across a restart", { timeout: 240_000 }, async () => {
    await awayFromWindowEdge();
    const here = services.consumer.url;
    const there = await startChild();
    const group = await newGroup(services.business!.db, 2);
    const [first, second] = group.locationIds as [string, string];

    // One caller, five guesses on each process: the eleventh is refused on both.
    const caller = await adminOf(group);
    for (const url of [here, there, here, there, here, there, here, there, here, there]) expect((await enter(url, caller, first)).status).toBe(404);
    for (const url of [here, there]) {
      const refused = await enter(url, caller, second);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }

    // Two administrators of the second location, 25 guesses at once from each, spread over both
    // processes: 10 answers each, and then the location's 20 are used up for a third administrator.
    const [a, b] = [await adminOf(group, second), await adminOf(group, second)];
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => enter(i % 2 === 0 ? here : there, i < 25 ? a : b, second)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const third = await adminOf(group, second);
    expect((await enter(here, third, second)).status).toBe(429);

    // The child restarts: the counts are still there.
    await stopChild();
    const restarted = await startChild();
    expect((await enter(restarted, third, second)).status).toBe(429);
    expect((await enter(restarted, caller, first)).status).toBe(429);
    // Rows for the caller, the two locations and the group, in one window.
    const rows = await services.consumer.db.selectFrom("consumer_checkin_guesses").select(["scope", "key", "misses"]).where("key", "in", [caller.sub, first, second, group.groupId]).execute();
    const byKey = (x: { scope: string; key: string }, y: { scope: string; key: string }) => (`${x.scope} ${x.key}` < `${y.scope} ${y.key}` ? -1 : 1);
    expect(rows.sort(byKey)).toEqual(
      [
        { scope: "caller", key: caller.sub, misses: 10 },
        { scope: "group", key: group.groupId, misses: 30 },
        { scope: "location", key: first, misses: 10 },
        { scope: "location", key: second, misses: 20 },
      ].sort(byKey),
    );
  });
});

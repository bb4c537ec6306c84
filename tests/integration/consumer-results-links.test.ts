// Results by link over real HTTP (docs/product/labs.md §10.8; docs/architecture/results-pipeline.md §5 "Results by link"):
// a real identity authority, the consumer API with its worker pool, and the reference lab result
// server (tests/lab-sites) on loopback with its own certificate. The consumer API is given that
// server as its test-only lab server for the links that must work; for the refused addresses the
// setting is taken away and a resolver is injected instead (the options object is the one the
// service holds, so the change applies to the next call).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LinkFetchOptions, ResolvedAddress } from "../../services/consumer/results/link.ts";
import { labHost, resultLink, startLabSites } from "../lab-sites/server.ts";
import type { LabSites, LinkReport } from "../lab-sites/server.ts";
import { pino } from "pino";
import { callApi, currentResults, json, lineSink, makePerson, safeWindowOf, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const CLIENT = { clientId: "safewindow-web", clientSecret: "consumer-links-secret-0123456789" };
const HOUR = 3600_000;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };

let services: Services;
let sites: LabSites;
const links: LinkFetchOptions = { timeoutMs: 3000 };
/** The consumer API's log lines. */
const logged: string[] = [];

beforeAll(async () => {
  sites = await startLabSites();
  links.testServer = { address: sites.address, port: sites.port, ca: sites.ca };
  services = await startServices({ client: CLIENT, tmpPrefix: "links-", links, consumerLogger: pino({ level: "info" }, lineSink(logged)) });
});

afterAll(async () => {
  await services?.close();
  await sites?.close();
});

const withProfile = (): Promise<TestUser> => makePerson(services, { ...ADA, postalCode: "94105" }, { tag: "links" });
const api = (p: string, user: TestUser | null, init?: RequestInit) => callApi(services, p, user, init);

/** A report of Ada, collected `hours` ago, whole minutes. */
function report(hours = 2, extra: Partial<LinkReport> = {}): LinkReport {
  const at = new Date(Math.floor((Date.now() - hours * HOUR) / 60_000) * 60_000);
  return { ...ADA, collectedAt: at.toISOString(), ...extra };
}

const addUrl = (user: TestUser | null, url: string) => api(`/testresult/addtestresulturl/?url=${encodeURIComponent(url)}`, user);
const textObjects = (user: TestUser, url: string) => api(`/testresult/generatetestresulttextobjectsurl/?url=${encodeURIComponent(url)}`, user);
const addLink = (user: TestUser, body: unknown) =>
  api("/testresult/addtestresultlink/", user, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** A refusal with `reason`, and nothing stored for `user`. */
async function expectRefused(user: TestUser, res: Response, reason: string, status = 422): Promise<string> {
  const body = await json(res);
  expect({ status: res.status, reason: body.reason, success: body.success }).toEqual({ status, reason, success: false });
  expect(typeof body.consumerMessage).toBe("string");
  expect(await currentResults(services, user)).toEqual([]);
  return body.consumerMessage as string;
}

describe("a valid link of each lab", () => {
  for (const lab of ["harborview", "cascade", "meridian"] as const) {
    it(`${lab}: stores a valid result marked as fetched from the lab's host, with its window and image`, async () => {
      const user = await withProfile();
      const res = await addUrl(user, resultLink(lab, report()));
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.success).toBe(true);
      expect(body.consumerMessage).toMatch(/^Your test result was validated\. Its safe window is strong until/);
      const [stored, ...others] = await currentResults(services, user);
      expect(others).toEqual([]);
      expect(stored).toMatchObject({ sF_TestResultId: body.sF_TestResultId, valid: 1, result: "Negative", fetchedFrom: labHost(lab), pageCount: 1 });
      expect((await safeWindowOf(services, user)).strongSafetyDate).not.toBeNull();
      const image = await api(`/testresult/getimage/?testResultId=${stored.sF_TestResultId}`, user);
      expect(image.status).toBe(200);
      expect(Buffer.from(await json<string>(image), "base64").subarray(0, 2).toString("hex")).toBe("ffd8");
    });
  }

  it("the same link twice is one result; another person's link is stored as not matching", async () => {
    const user = await withProfile();
    const link = resultLink("meridian", report(3));
    expect((await addUrl(user, link)).status).toBe(200);
    await expectRefusedKeeping(user, await addUrl(user, link), "duplicate", 1);
    const res = await addUrl(user, resultLink("harborview", report(3, { firstName: "Grace", lastName: "Hopper" })));
    expect(res.status).toBe(200);
    expect((await json(res)).consumerMessage).toMatch(/does not match your profile/);
  });

  it("follows a redirect on the same host", async () => {
    const user = await withProfile();
    const res = await addUrl(user, resultLink("cascade", report(), "moved"));
    expect(res.status).toBe(200);
    expect((await currentResults(services, user))[0].fetchedFrom).toBe(labHost("cascade"));
  });

  it("five links added at once on one session store each result once", async () => {
    const user = await withProfile();
    const link = resultLink("harborview", report(5));
    const answers = await Promise.all(Array.from({ length: 5 }, () => addUrl(user, link)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(4);
    expect(await currentResults(services, user)).toHaveLength(1);
  });
});

/** A refusal with `reason` that leaves `count` results stored. */
async function expectRefusedKeeping(user: TestUser, res: Response, reason: string, count: number): Promise<void> {
  const body = await json(res);
  expect([res.status, body.reason]).toEqual([422, reason]);
  expect(await currentResults(services, user)).toHaveLength(count);
}

it("no result link reaches the consumer API's log", async () => {
  const user = await withProfile();
  expect((await addUrl(user, resultLink("cascade", report(6)))).status).toBe(200);
  const lines = logged.join("\n");
  expect(lines).toContain("/testresult/addtestresulturl/?url=[redacted]");
  for (const lab of ["harborview", "meridian", "cascade"]) expect(lines).not.toContain(labHost(lab));
  expect(lines).not.toMatch(/\/r\/ey/);
});

describe("links refused before any connection", () => {
  it("an unknown host, http:, a port, credentials, bare addresses and a non-URL, each with its message", async () => {
    const user = await withProfile();
    const unknown = await expectRefused(user, await addUrl(user, "https://results.example.com/r/abc"), "link_unknown_host");
    expect(unknown).toContain("Harborview Labs, Meridian Diagnostics and Cascade Rapid Testing");
    const notHttps = await expectRefused(user, await addUrl(user, `http://${labHost("harborview")}/r/abc`), "link_not_https");
    expect(notHttps).toContain("https://");
    await expectRefused(user, await addUrl(user, `https://${labHost("harborview")}:8443/r/abc`), "link_unknown_host");
    await expectRefused(user, await addUrl(user, `https://ada:secret@${labHost("harborview")}/r/abc`), "link_invalid", 400);
    for (const bare of ["https://127.0.0.1/r/abc", "https://[::1]/r/abc", "https://169.254.169.254/latest/meta-data/", "https://0x7f.1/r/abc", "https://[::ffff:127.0.0.1]/"]) {
      const message = await expectRefused(user, await addUrl(user, bare), "link_address");
      expect(message).toContain("Paste the link to your result exactly as your testing company sent it.");
    }
    await expectRefused(user, await addUrl(user, "not a link"), "link_invalid", 400);
    await expectRefused(user, await addUrl(user, `https://${labHost("harborview")}/${"a".repeat(2100)}`), "link_invalid", 400);
  });

  it("a host spelled in capitals or with a trailing dot is the same declared host", async () => {
    const user = await withProfile();
    const link = resultLink("harborview", report(4)).replace(labHost("harborview"), `${labHost("harborview").toUpperCase()}.`);
    const res = await addUrl(user, link);
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  });

  it("needs a token and a profile; the query once", async () => {
    expect((await addUrl(null, resultLink("harborview", report()))).status).toBe(401);
    const res = await api(`/testresult/addtestresulturl/?url=a&url=b`, await withProfile());
    expect(res.status).toBe(400);
  });
});

describe("what the lab's site answers", () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await withProfile();
  });

  it("a redirect to another host, to http: or to an address", async () => {
    const host = `https://${labHost("harborview")}`;
    const sameHostWithPassword = resultLink("harborview", report()).replace("https://", "https://:pw@");
    for (const to of [resultLink("cascade", report()), "https://example.com/result.pdf", `http://${labHost("harborview")}/r/x`, "https://127.0.0.1/", sameHostWithPassword]) {
      await expectRefused(user, await addUrl(user, `${host}/elsewhere/x?to=${encodeURIComponent(to)}`), "link_redirect");
    }
  });

  it("an oversized body, declared or not", async () => {
    const message = await expectRefused(user, await addUrl(user, `https://${labHost("harborview")}/big/x`), "too_large", 413);
    expect(message).toContain("larger than 10 MB");
    await expectRefused(user, await addUrl(user, `https://${labHost("harborview")}/big-declared/x`), "too_large", 413);
  });

  it("a slow body is given up at the time limit", async () => {
    const started = Date.now();
    await expectRefused(user, await addUrl(user, `https://${labHost("cascade")}/slow/x`), "link_slow");
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it("a body that is not a PDF, a content type that is not the lab's, another lab's report, a gone link", async () => {
    await expectRefused(user, await addUrl(user, `https://${labHost("harborview")}/not-pdf/x`), "not_pdf");
    await expectRefused(user, await addUrl(user, `https://${labHost("harborview")}/wrong-type/x`), "link_type");
    // Compressed although identity was asked for: neither counted nor readable as it came.
    await expectRefused(user, await addUrl(user, resultLink("harborview", report(), "gzip")), "link_type");
    await expectRefused(user, await addUrl(user, resultLink("harborview", report(), "other-lab")), "link_wrong_lab");
    await expectRefused(user, await addUrl(user, `https://${labHost("meridian")}/gone/x`), "link_not_found");
    await expectRefused(user, await addUrl(user, `https://${labHost("meridian")}/nothing-here`), "link_not_found");
  });
});

describe("DNS rebinding", () => {
  afterAll(() => {
    delete links.resolve;
  });

  it("the host is resolved once per link, across a redirect, and the checked address is the one connected to", async () => {
    const user = await withProfile();
    const asked: string[] = [];
    // First answer: the lab server (the one loopback address the test setting allows); any later
    // answer would be a private address that must never be reached.
    links.resolve = async (host) => {
      asked.push(host);
      return asked.length === 1 ? [{ address: sites.address, family: 4 }] : [{ address: "10.9.8.7", family: 4 }];
    };
    const res = await addUrl(user, resultLink("harborview", report(7), "moved"));
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    expect(asked).toEqual([labHost("harborview")]);
  });

  it("every checked address is tried: an unreachable first address does not make the lab unreachable", async () => {
    const user = await withProfile();
    links.resolve = async () => [
      { address: "2001:4860:4860::8888", family: 6 },
      { address: sites.address, family: 4 },
    ];
    const res = await addUrl(user, resultLink("cascade", report(8)));
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  });

  it("a resolver slower than the time limit is given up at the limit", async () => {
    const user = await withProfile();
    links.resolve = () => new Promise((resolve) => setTimeout(() => resolve([{ address: sites.address, family: 4 }]), 6000));
    const started = Date.now();
    await expectRefused(user, await addUrl(user, resultLink("cascade", report(9))), "link_slow");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("criteria that cannot be right are refused before the host is even resolved", async () => {
    const user = await withProfile();
    const asked: string[] = [];
    links.resolve = async (host) => {
      asked.push(host);
      return [{ address: sites.address, family: 4 }];
    };
    const res = await addLink(user, { url: resultLink("meridian", report()), criteria: [{ property: "result", label: "Sample received" }] });
    expect(res.status).toBe(400);
    expect(asked).toEqual([]);
  });
});

describe("addresses a declared host resolves to (no test lab server)", () => {
  let user: TestUser;
  let asked: string[];
  const saved = () => links.testServer;
  let testServer: LinkFetchOptions["testServer"];

  beforeAll(() => {
    testServer = saved();
  });
  beforeEach(async () => {
    user = await withProfile();
    asked = [];
    delete links.testServer;
  });
  afterAll(() => {
    delete links.resolve;
    links.testServer = testServer;
  });

  const resolveTo = (...addresses: ResolvedAddress[]) => {
    links.resolve = async (host) => {
      asked.push(host);
      return addresses;
    };
  };

  it("private, loopback, link-local, unique-local, multicast, reserved and IPv4-mapped addresses are refused before connecting", async () => {
    const cases: ResolvedAddress[] = [
      { address: "10.1.2.3", family: 4 },
      { address: "192.168.0.10", family: 4 },
      { address: "172.16.5.4", family: 4 },
      { address: "127.0.0.1", family: 4 },
      { address: "169.254.169.254", family: 4 },
      { address: "100.64.0.1", family: 4 },
      { address: "0.0.0.0", family: 4 },
      { address: "224.0.0.1", family: 4 },
      { address: "240.0.0.1", family: 4 },
      { address: "::1", family: 6 },
      { address: "fe80::1", family: 6 },
      { address: "fd00::1", family: 6 },
      { address: "::ffff:10.0.0.1", family: 6 },
      { address: "::ffff:7f00:1", family: 6 },
    ];
    for (const address of cases) {
      resolveTo(address);
      const message = await expectRefused(user, await addUrl(user, resultLink("harborview", report())), "link_address");
      expect(message, address.address).toContain("an address we do not fetch results from");
    }
    expect(asked).toEqual(cases.map(() => labHost("harborview")));
  });

  it("one private address among public ones is enough to refuse", async () => {
    resolveTo({ address: "93.184.215.14", family: 4 }, { address: "10.0.0.8", family: 4 });
    await expectRefused(user, await addUrl(user, resultLink("cascade", report())), "link_address");
  });

  it("a host that does not resolve", async () => {
    links.resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const message = await expectRefused(user, await addUrl(user, resultLink("meridian", report())), "link_unreachable");
    expect(message).toContain("could not reach");
  });

  it("without the test server setting, the reference server on loopback is refused like any private address", async () => {
    resolveTo({ address: sites.address, family: 4 });
    await expectRefused(user, await addUrl(user, resultLink("harborview", report())), "link_address");
  });
});

describe("text objects and criteria", () => {
  it("answers the text objects of a page and of a PDF, storing nothing", async () => {
    const user = await withProfile();
    const page = await json(await textObjects(user, resultLink("meridian", report())));
    expect(page).toMatchObject({ success: true, publicName: "Meridian Diagnostics", serves: "page" });
    const texts = page.textObjects.map((t: { text: string }) => t.text);
    expect(texts).toEqual(expect.arrayContaining(["Surname", "Lovelace", "Date of birth", "10/12/1990", "Result", "Negative"]));
    // Scripts, the head and hidden rows are not text a reader sees.
    expect(texts.join(" ")).not.toMatch(/analytics|Positive|Your COVID-19 result/);
    const surname = page.textObjects.find((t: { text: string }) => t.text === "Surname");
    expect(page.textObjects).toContainEqual({ text: "Lovelace", line: surname.line, column: surname.column + 1 });
    const pdf = await json(await textObjects(user, resultLink("harborview", report())));
    expect(pdf).toMatchObject({ success: true, publicName: "Harborview Labs", serves: "pdf" });
    expect(pdf.textObjects.map((t: { text: string }) => t.text)).toContain("Patient Name: LOVELACE, ADA");
    expect(await currentResults(services, user)).toEqual([]);
  });

  const meridianCriteria = [
    { property: "givenNames", label: "Forename(s)" },
    { property: "lastName", label: "Surname" },
    { property: "dateOfBirth", label: "Date of birth" },
    { property: "collectionTime", label: "Sample taken" },
    { property: "testType", label: "Test type" },
    { property: "result", label: "Result" },
  ];

  it("stores a result read by criteria that name the lab's labels", async () => {
    const user = await withProfile();
    const res = await addLink(user, { url: resultLink("meridian", report()), criteria: meridianCriteria.map((c) => ({ ...c, label: `${c.label.toUpperCase()}:` })) });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    expect((await currentResults(services, user))[0]).toMatchObject({ valid: 1, fetchedFrom: labHost("meridian") });
  });

  it("refuses criteria that point a field at other text, miss one or repeat one, before storing anything", async () => {
    const user = await withProfile();
    const url = resultLink("meridian", report());
    const later = meridianCriteria.map((c) => (c.property === "collectionTime" ? { ...c, label: "Sample received" } : c));
    const message = await expectRefused(user, await addLink(user, { url, criteria: later }), "criteria", 400);
    expect(message).toBe("The criteria do not say where Meridian Diagnostics prints the specimen collection time: it follows “Sample taken”.");
    await expectRefused(user, await addLink(user, { url, criteria: meridianCriteria.slice(1) }), "criteria", 400);
    await expectRefused(user, await addLink(user, { url, criteria: [...meridianCriteria, { property: "result", label: "Result" }] }), "criteria", 400);
    await expectRefused(user, await addLink(user, { url, criteria: [...meridianCriteria, { property: "name", label: "Forename(s)" }] }), "criteria", 400);
    const bad = await addLink(user, { url, criteria: [{ property: "shoeSize", label: "x" }] });
    expect(bad.status).toBe(400);
  });
});

// Results by link, the pure parts (docs/product/labs.md §10.8): which links are refused before any
// connection (results/link.ts checkLink), which addresses may be connected to (isPublicAddress,
// ipaddr.js), the test-only lab server setting, an HTML result page read into lines (page.ts), and
// the criteria checked against a lab's layout (criteria.ts).
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LABS, labById } from "../../services/consumer/labs/index.ts";
import { checkCriteria, labCriteria } from "../../services/consumer/results/criteria.ts";
import { extractLines } from "../../services/consumer/results/extract.ts";
import { recognisesPage } from "../../services/consumer/results/issuer.ts";
import { checkLink, isPublicAddress, labTestServerFromEnv } from "../../services/consumer/results/link.ts";
import { MAX_LINE_RUNS, MAX_PAGE_RUNS, PageTooComplexError, readResultPage } from "../../services/consumer/results/page.ts";
import { UploadRejectedError } from "../../services/consumer/results/errors.ts";
import { meridianPage } from "../fixtures/labs.ts";

const reason = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    if (err instanceof UploadRejectedError) return err.reason;
    throw err;
  }
  return "accepted";
};

describe("checkLink", () => {
  it("accepts a declared host over https, in any letter case, with one trailing dot", () => {
    expect(checkLink("https://results.harborview-labs.example/r/abc", LABS).lab.id).toBe("harborview");
    expect(checkLink("  HTTPS://Results.Meridian-Diagnostics.Example./r/abc?x=1  ", LABS).lab.id).toBe("meridian");
    expect(checkLink("https://results.cascade-rapid.example:443/r/abc", LABS).lab.id).toBe("cascade");
  });

  it("refuses everything else before any connection", () => {
    const cases: [string, string][] = [
      ["http://results.harborview-labs.example/r/abc", "link_not_https"],
      ["ftp://results.harborview-labs.example/r/abc", "link_not_https"],
      ["file:///etc/passwd", "link_not_https"],
      ["javascript:alert(1)", "link_not_https"],
      ["https://results.harborview-labs.example.evil.test/r", "link_unknown_host"],
      ["https://evil.test/results.harborview-labs.example", "link_unknown_host"],
      ["https://results.harborview-labs.example:8443/r", "link_unknown_host"],
      ["https://x@results.harborview-labs.example/r", "link_invalid"],
      ["https://127.0.0.1/", "link_address"],
      ["https://2130706433/", "link_address"],
      ["https://0177.0.0.1/", "link_address"],
      ["https://[::1]/", "link_address"],
      ["https://[::ffff:169.254.169.254]/", "link_address"],
      ["https://169.254.169.254/latest/meta-data/", "link_address"],
      ["", "link_invalid"],
      ["results.harborview-labs.example/r/abc", "link_invalid"],
      [`https://results.harborview-labs.example/${"x".repeat(2048)}`, "link_invalid"],
    ];
    for (const [link, expected] of cases) expect(reason(() => checkLink(link, LABS)), link).toBe(expected);
  });
});

describe("isPublicAddress", () => {
  it("allows public unicast addresses only", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(isPublicAddress(address), address).toBe(true);
    const refused = [
      "127.0.0.1", "127.8.9.10", "10.0.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "255.255.255.255",
      "224.0.0.251", "240.0.0.1", "192.0.2.1", "198.51.100.7", "203.0.113.9", "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
      "::ffff:127.0.0.1", "::ffff:10.1.1.1", "::ffff:a9fe:a9fe", "2001:db8::1", "64:ff9b::a00:1", "::7f00:1", "::a9fe:a9fe", "::808:808", "not an address",
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
  });

  it("allows the test lab server's own address when it is given", () => {
    expect(isPublicAddress("127.0.0.1", "127.0.0.1")).toBe(true);
    expect(isPublicAddress("::ffff:127.0.0.1", "127.0.0.1")).toBe(true);
    expect(isPublicAddress("127.0.0.2", "127.0.0.1")).toBe(false);
  });
});

describe("labTestServerFromEnv", () => {
  it("is off unless set, and only ever a loopback address with a certificate", () => {
    expect(labTestServerFromEnv(undefined, undefined)).toBeUndefined();
    const ca = path.join(tmpdir(), `lab-ca-${process.pid}.pem`);
    writeFileSync(ca, "-----BEGIN CERTIFICATE-----\n");
    expect(labTestServerFromEnv("127.0.0.1:3103", ca)).toEqual({ address: "127.0.0.1", port: 3103, ca: "-----BEGIN CERTIFICATE-----\n" });
    expect(labTestServerFromEnv("[::1]:3103", ca)?.address).toBe("::1");
    expect(() => labTestServerFromEnv("10.0.0.5:443", ca)).toThrow(/loopback/);
    expect(() => labTestServerFromEnv("lab.example:443", ca)).toThrow(/loopback/);
    expect(() => labTestServerFromEnv("127.0.0.1", ca)).toThrow(/loopback/);
    expect(() => labTestServerFromEnv("127.0.0.1:3103", undefined)).toThrow(/LAB_LINKS_TEST_CA/);
  });
});

describe("readResultPage", () => {
  it("reads table rows as label and value runs, without the head, scripts or hidden rows", () => {
    const lines = readResultPage(meridianPage({ firstName: "Zoë", lastName: "O'Brien", dob: "1985-02-28", collectedAt: new Date("2026-11-20T08:15:00Z") }));
    const runs = lines.map((l) => l.runs);
    expect(runs).toContainEqual(["Surname", "O'Brien"]);
    expect(runs).toContainEqual(["Forename(s)", "Zoë"]);
    expect(runs).toContainEqual(["Date of birth", "28/02/1985"]);
    expect(runs).toContainEqual(["Sample taken", "2026-11-20 08:15 (+00:00)"]);
    expect(runs.flat().join(" ")).not.toMatch(/analytics|Positive|Your COVID-19 result|text-align/);
    const meridian = labById("meridian")!;
    expect(recognisesPage(lines, meridian)).toBe(true);
    expect(recognisesPage(lines, labById("harborview")!)).toBe(false);
    expect(extractLines(lines, meridian)).toMatchObject({ givenNames: "Zoë", lastName: "O'Brien", dob: "1985-02-28", outcome: "Negative", method: "NAAT" });
  });

  it("decodes character references, keeps cells apart, and survives broken markup", () => {
    expect(readResultPage("<p>Ada &amp; <b>Bob</b></p><dl><dt>Result</dt><dd>Neg&#97;tive</dd></dl>").map((l) => l.runs)).toEqual([["Ada & Bob"], ["Result", "Negative"]]);
    expect(readResultPage("<table><tr><td>Result<td>Negative<tr><td>Test type<td>PCR").map((l) => l.runs)).toEqual([
      ["Result", "Negative"],
      ["Test type", "PCR"],
    ]);
    const shown = readResultPage("<div hidden><p>x</p></div><p aria-hidden=true>y</p><template><p>z</p></template>text<br>more");
    expect(shown.map((l) => l.runs)).toEqual([["text"], ["more"]]);
    expect(shown[1]!.y).toBeLessThan(shown[0]!.y);
    expect(readResultPage("<<<>>>&&&").length).toBe(1);
    expect(readResultPage('<p style="display: none">x</p><p style="color:red;visibility:hidden">y</p><p style="display:block">z</p>').map((l) => l.runs)).toEqual([["z"]]);
  });

  it("stays fast and bounded on hostile markup", () => {
    const started = performance.now();
    expect(() => readResultPage("<div>".repeat(50_000))).toThrow(PageTooComplexError);
    const cells = readResultPage(`<table><tr>${"<td>a".repeat(200_000)}</table>${"<p>b</p>".repeat(30_000)}`);
    expect(cells[0]!.runs).toHaveLength(MAX_LINE_RUNS);
    expect(cells.reduce((n, l) => n + l.runs.length, 0)).toBeLessThanOrEqual(MAX_PAGE_RUNS);
    expect(readResultPage(`<p>${"x".repeat(1_000_000)}</p>`)[0]!.runs[0]!.length).toBeLessThan(5000);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe("criteria", () => {
  it("the lab's own labels are criteria that pass, whatever the case, spaces and colon", () => {
    for (const lab of LABS) {
      expect(() => checkCriteria(labCriteria(lab), lab)).not.toThrow();
      expect(() => checkCriteria(labCriteria(lab).map((c) => ({ ...c, label: ` ${c.label.toLowerCase().replace(/:$/, "")} ` })), lab)).not.toThrow();
    }
    expect(labCriteria(labById("harborview")!).map((c) => c.property)).toEqual(["name", "dateOfBirth", "collectionTime", "testType", "result"]);
  });

  it("refuses a field read after other text, missing, repeated, or not printed by the lab", () => {
    const lab = labById("harborview")!;
    const own = labCriteria(lab);
    expect(reason(() => checkCriteria(own.map((c) => (c.property === "name" ? { ...c, label: "Ordering physician:" } : c)), lab))).toBe("criteria");
    expect(reason(() => checkCriteria(own.slice(0, -1), lab))).toBe("criteria");
    expect(reason(() => checkCriteria([...own, own[0]!], lab))).toBe("criteria");
    expect(reason(() => checkCriteria([...own, { property: "lastName", label: "Patient Name:" }], lab))).toBe("criteria");
    expect(reason(() => checkCriteria([], lab))).toBe("criteria");
  });
});

// The reference lab result server (docs/architecture/results-pipeline.md §5 "Results by link"; tests only): one HTTPS
// server on loopback that answers for every host an accepted lab declares (labs/*.ts `links.hosts`),
// with a certificate made at start for those names (selfsigned), serving each lab's result links as
// the lab would: Harborview and Cascade a report PDF, Meridian an HTML result page
// (tests/fixtures/labs.ts). A link carries the report it serves: `/r/<base64url of a LinkReport>`,
// so tests and the browser journeys make links without talking to the server. Other paths misbehave
// on purpose, for the fetcher's refusals: redirects, a slow body, an oversized body, a body that is
// not what the content type says; a `held` link answers only when the test releases it.
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:https";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import selfsigned from "selfsigned";
import { LABS } from "../../services/consumer/labs/index.ts";
import type { LabFormat } from "../../services/consumer/labs/types.ts";
import { cascadePdf, harborviewPdf, meridianPage } from "../fixtures/labs.ts";
import type { FixtureMethod, FixtureResult, ReportOptions } from "../fixtures/labs.ts";

/** What a link's report says (ReportOptions as JSON). */
export interface LinkReport {
  firstName: string;
  middleNames?: string;
  lastName: string;
  /** 'YYYY-MM-DD'. */
  dob: string;
  /** ISO 8601 instant. */
  collectedAt: string;
  method?: FixtureMethod;
  result?: FixtureResult;
}

export interface LabSites {
  /** Where it listens: LAB_LINKS_TEST_SERVER is `${address}:${port}`. */
  address: string;
  port: number;
  /** The certificate (PEM) to trust for the labs' hosts: LAB_LINKS_TEST_CA. */
  ca: string;
  /**
   * The `held/<token>` links: answered as `r/<token>` once `release()` is called, so a test can hold
   * an upload by link at the consumer API for as long as it needs; `arrived` resolves when the first
   * such request has come in.
   */
  held: { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

/** The first declared host of a lab, by id. */
export function labHost(labId: string): string {
  const host = LABS.find((lab) => lab.id === labId)?.links?.hosts[0];
  if (!host) throw new Error(`no result links for lab ${labId}`);
  return host;
}

/** A result link of `labId` that serves `report`. */
export function resultLink(labId: string, report: LinkReport, path = "r"): string {
  return `https://${labHost(labId)}/${path}/${Buffer.from(JSON.stringify(report)).toString("base64url")}`;
}

function readReport(token: string): ReportOptions | null {
  try {
    const r = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as LinkReport;
    if (typeof r.firstName !== "string" || typeof r.lastName !== "string" || typeof r.dob !== "string") return null;
    const collectedAt = new Date(r.collectedAt);
    if (Number.isNaN(collectedAt.getTime())) return null;
    return { ...r, collectedAt };
  } catch {
    return null;
  }
}

/** The lab's document for a report: a PDF or an HTML page, as its links serve them. */
async function documentOf(lab: LabFormat, report: ReportOptions): Promise<{ type: string; body: Uint8Array }> {
  switch (lab.id) {
    case "meridian":
      return { type: "text/html; charset=utf-8", body: new TextEncoder().encode(meridianPage(report)) };
    case "cascade":
      return { type: "application/pdf", body: await cascadePdf(report) };
    default:
      return { type: "application/pdf", body: await harborviewPdf(report) };
  }
}

/** The gate of the `held` links (LabSites.held). */
interface HeldGate {
  arrived: PromiseWithResolvers<void>;
  released: PromiseWithResolvers<void>;
}

async function answer(req: IncomingMessage, res: ServerResponse, held: HeldGate): Promise<void> {
  const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
  const lab = LABS.find((l) => l.links?.hosts.includes(host));
  const url = new URL(req.url ?? "/", `https://${host || "localhost"}`);
  const [, action = "", token = ""] = url.pathname.split("/");
  if (!lab) {
    res.writeHead(421).end();
    return;
  }
  const report = readReport(token);
  switch (action) {
    case "held":
    case "r": {
      if (!report) break;
      if (action === "held") {
        held.arrived.resolve();
        await held.released.promise;
      }
      const doc = await documentOf(lab, report);
      res.writeHead(200, { "content-type": doc.type, "content-length": doc.body.byteLength, "cache-control": "no-store" }).end(doc.body);
      return;
    }
    case "moved":
      // A redirect on the same host, as a lab's short link is.
      res.writeHead(302, { location: `/r/${token}` }).end();
      return;
    case "elsewhere":
      // A redirect to wherever `to` says (another host, http:, a private address).
      res.writeHead(302, { location: url.searchParams.get("to") ?? "https://example.com/" }).end();
      return;
    case "other-lab": {
      // Another lab's report served from this lab's host.
      if (!report) break;
      const other = LABS.find((l) => l.id !== lab.id && l.links?.serves === "pdf") as LabFormat;
      const doc = await documentOf(other, report);
      res.writeHead(200, { "content-type": doc.type }).end(doc.body);
      return;
    }
    case "slow":
      // Headers at once, then a byte every half second, never ending.
      res.writeHead(200, { "content-type": lab.links?.serves === "page" ? "text/html" : "application/pdf" });
      res.write("%PDF-1.7\n");
      {
        const timer = setInterval(() => res.write("%"), 500);
        res.on("close", () => clearInterval(timer));
      }
      return;
    case "big": {
      // 11 MiB without a declared length, in 64 KiB chunks.
      res.writeHead(200, { "content-type": "application/pdf" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      chunk.write("%PDF-1.7\n");
      let sent = 0;
      const more = () => {
        while (sent < 11 * 1024 * 1024) {
          sent += chunk.byteLength;
          if (!res.write(chunk)) {
            res.once("drain", more);
            return;
          }
        }
        res.end();
      };
      res.on("error", () => {});
      more();
      return;
    }
    case "big-declared":
      // Declares 50 MiB; the fetcher must give up on the header alone.
      res.writeHead(200, { "content-type": "application/pdf", "content-length": String(50 * 1024 * 1024) });
      res.write("%PDF-1.7\n");
      {
        const timer = setTimeout(() => res.destroy(), 5000);
        res.on("close", () => clearTimeout(timer));
      }
      return;
    case "not-pdf":
      // Says PDF, is a web page.
      res.writeHead(200, { "content-type": "application/pdf" }).end("<!doctype html><title>Sign in</title><p>Sign in to see your result.</p>");
      return;
    case "wrong-type":
      res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from("89504e470d0a1a0a", "hex"));
      return;
    case "gzip": {
      // The report, compressed although the client asked for identity.
      if (!report) break;
      const doc = await documentOf(lab, report);
      res.writeHead(200, { "content-type": doc.type, "content-encoding": "gzip" }).end(gzipSync(doc.body));
      return;
    }
    case "gone":
      res.writeHead(410, { "content-type": "text/plain" }).end("This result link has expired.");
      return;
  }
  res.writeHead(404, { "content-type": "text/plain" }).end("No such result.");
}

/**
 * Starts the server on `address`:`port` (default 127.0.0.1, an ephemeral port) with a new
 * certificate for every declared lab host, written to `caFile` (PEM) before listening when given.
 */
export async function startLabSites(opts: { address?: string; port?: number; caFile?: string } = {}): Promise<LabSites> {
  const hosts = LABS.flatMap((lab) => lab.links?.hosts ?? []);
  const now = new Date();
  const pems = await selfsigned.generate([{ name: "commonName", value: "SafeWindow reference lab sites" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - 3600_000),
    notAfterDate: new Date(now.getTime() + 7 * 24 * 3600_000),
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: hosts.map((value) => ({ type: 2, value })) },
    ],
  });
  // Written before the port opens: whoever waits for the port may read it at once.
  if (opts.caFile) {
    mkdirSync(path.dirname(opts.caFile), { recursive: true });
    writeFileSync(opts.caFile, pems.cert);
  }
  const held: HeldGate = { arrived: Promise.withResolvers(), released: Promise.withResolvers() };
  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    answer(req, res, held).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  const address = opts.address ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, address, () => resolve());
  });
  return {
    address,
    port: (server.address() as AddressInfo).port,
    ca: pems.cert,
    held: { arrived: held.arrived.promise, release: () => held.released.resolve() },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

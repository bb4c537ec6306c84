// Results by link (docs/product/calls.md §7.2 addtestresulturl, addtestresultlink, generatetestresulttextobjectsurl;
// docs/architecture/results-pipeline.md §5 "Results by link"): the consumer API fetches, on its own server, a URL a
// user typed. Everything here is about fetching it safely (server-side request forgery):
// - before any connection: the URL must be `https:` on port 443, without user or password, on a
//   host an accepted lab declares (labs/*.ts `links.hosts`); a bare IP address is never a lab's host;
// - the host is resolved once, every address it resolves to must be a public unicast address
//   (ipaddr.js classifies: loopback, private, link-local, multicast, reserved, unique-local,
//   IPv4-mapped IPv6 of any of those, … are refused), and the connection goes to the address that
//   was checked (a pinned `lookup`), so a second answer of the DNS (rebinding) cannot move it;
// - a redirect is followed only on the same host (at most MAX_REDIRECTS);
// - the whole fetch has a time limit, the body the upload's byte limit, and the content type must
//   be what the lab serves by link (a PDF, or an HTML result page).
// HTTP is undici (the client Node's own fetch is built on), with TLS verified against the host name.
import { lookup as dnsLookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import type { LabFormat } from "../labs/types.ts";
import { MAX_UPLOAD_BYTES } from "./intake.ts";
import { UploadRejectedError } from "./errors.ts";
import type { RejectionReason } from "./errors.ts";

/** An address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; rejects when it has none (node:dns/promises lookup). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/**
 * Test only (docs/operating.md "Every variable"): every declared lab host is served by one
 * reference lab server on loopback. Its address is then the only non-public address allowed,
 * connections go to `port` instead of 443, and `ca` (PEM) is trusted for the labs' host names.
 * Never set by default; refused-address tests run without it.
 */
export interface LabTestServer {
  address: string;
  port: number;
  ca: string;
}

export interface LinkFetchOptions {
  /** The host name resolver (default: the system's, all addresses). Tests inject their own. */
  resolve?: Resolver;
  /** Most time for the whole fetch (connect, redirects, headers and body), ms (default 10 000). */
  timeoutMs?: number;
  /** Largest body, bytes (default the upload limit, MAX_UPLOAD_BYTES). */
  maxBytes?: number;
  testServer?: LabTestServer;
}

/** What a lab's site answered. */
export interface FetchedDocument {
  lab: LabFormat;
  /** The host the document came from (lower case, no trailing dot). */
  host: string;
  kind: "pdf" | "page";
  bytes: Uint8Array;
}

/** Longest URL accepted, characters. */
export const MAX_LINK_LENGTH = 2048;
/** Redirects followed on the same host before giving up. */
export const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 10_000;

const CONTENT_TYPES = { pdf: "application/pdf", page: "text/html" } as const;

/** The labs that serve results by link, by public name, for messages. */
function linkLabNames(labs: readonly LabFormat[]): string[] {
  return labs.filter((lab) => lab.links).map((lab) => lab.publicName);
}

/** The refusal of `reason`, with its consumerMessage. */
function refuse(reason: Exclude<Extract<RejectionReason, `link_${string}`>, "link_wrong_lab">, labs: readonly LabFormat[]): UploadRejectedError {
  return new UploadRejectedError(reason, (w) => (reason === "link_unknown_host" ? w.link_unknown_host(linkLabNames(labs)) : w[reason]()));
}

/** A host name as compared with the labs' declarations: lower case (URL does that), one trailing dot dropped. */
function hostOf(url: URL): string {
  return url.hostname.replace(/\.$/, "");
}

/**
 * Checks a link before any connection (the first list of the file comment).
 * @returns the parsed URL and the lab whose host it is.
 * @throws UploadRejectedError link_invalid (not a URL, too long, user or password in it),
 *   link_not_https, link_address (a bare IP address), link_unknown_host (no accepted lab serves
 *   results from that host, or a port other than 443 is named).
 */
export function checkLink(raw: string, labs: readonly LabFormat[]): { url: URL; lab: LabFormat } {
  const text = raw.trim();
  if (text === "" || text.length > MAX_LINK_LENGTH || !URL.canParse(text)) throw refuse("link_invalid", labs);
  const url = new URL(text);
  if (url.protocol !== "https:") throw refuse("link_not_https", labs);
  if (url.username !== "" || url.password !== "") throw refuse("link_invalid", labs);
  const host = hostOf(url);
  // URL writes IPv6 literals in brackets and every IPv4 spelling (0x7f.1, 2130706433) as dotted quads.
  if (isIP(host.replace(/^\[|\]$/g, "")) !== 0) throw refuse("link_address", labs);
  const lab = labs.find((l) => l.links?.hosts.includes(host));
  if (!lab || url.port !== "") throw refuse("link_unknown_host", labs);
  return { url, lab };
}

/**
 * Whether an address may be connected to: a public unicast address (ipaddr.js range "unicast"),
 * an IPv4-mapped IPv6 address judged as the IPv4 address it carries; `allowed` (the test server's
 * address) too.
 */
export function isPublicAddress(address: string, allowed?: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (allowed !== undefined && ipaddr.isValid(allowed) && ipaddr.process(allowed).toString() === parsed.toString()) return true;
  // IPv4-compatible IPv6 (::/96, deprecated) carries an IPv4 address that ipaddr.js calls unicast.
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return parsed.range() === "unicast";
}

const systemResolver: Resolver = async (host) => {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * A `lookup` that answers the checked addresses whatever host is asked (the pinned connection):
 * all of them when asked for all (Node then tries each in turn, IPv6 and IPv4), else the first.
 */
function pinnedLookup(pinned: readonly ResolvedAddress[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const first = pinned[0] as ResolvedAddress;
    if (options?.all) callback(null, pinned.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, first.address, first.family);
  }) as unknown as LookupFunction;
}

/**
 * Resolves the link's host once and checks every address, within the fetch's time limit.
 * @returns the addresses, every one checked.
 * @throws UploadRejectedError link_unreachable (no address), link_address (any address not public), link_slow.
 */
async function resolveChecked(host: string, labs: readonly LabFormat[], opts: LinkFetchOptions, signal: AbortSignal): Promise<ResolvedAddress[]> {
  const test = opts.testServer;
  const resolve: Resolver =
    opts.resolve ?? (test ? async () => [{ address: test.address, family: isIP(test.address) === 6 ? 6 : 4 }] : systemResolver);
  let addresses: ResolvedAddress[];
  try {
    addresses = await new Promise<ResolvedAddress[]>((resolved, rejected) => {
      const onAbort = () => rejected(refuse("link_slow", labs));
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      resolve(host).then(resolved, rejected).finally(() => signal.removeEventListener("abort", onAbort));
    });
  } catch (err) {
    throw err instanceof UploadRejectedError ? err : refuse("link_unreachable", labs);
  }
  if (addresses.length === 0) throw refuse("link_unreachable", labs);
  if (!addresses.every((a) => isPublicAddress(a.address, test?.address))) throw refuse("link_address", labs);
  return addresses;
}

/**
 * Fetches the document a lab's result link points to (the whole file comment).
 * @param raw the link as the user typed it.
 * @param labs the accepted labs (labs/index.ts LABS).
 * @returns the lab, the host and the body, at most `maxBytes`.
 * @throws UploadRejectedError of checkLink, then link_unreachable (no address, no connection,
 *   TLS refused, a server error), link_address, link_redirect (to another host or scheme, or too
 *   many), link_not_found (404, 410), link_slow (over `timeoutMs`), link_type (not what the lab
 *   serves by link), too_large (over `maxBytes`).
 */
export async function fetchLabDocument(raw: string, labs: readonly LabFormat[], opts: LinkFetchOptions = {}): Promise<FetchedDocument> {
  const { url: first, lab } = checkLink(raw, labs);
  const links = lab.links as NonNullable<LabFormat["links"]>;
  const host = hostOf(first);
  const maxBytes = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const pinned = await resolveChecked(host, labs, opts, signal);
  // Loaded on the first link, not with the consumer API: undici holds about 5 MiB of heap that a
  // data thread serving no result by link never needs (docs/decisions/0013-bounded-v8-heap.md).
  const { Agent, errors: undiciErrors, request } = await import("undici");
  const agent = new Agent({
    connect: {
      lookup: pinnedLookup(pinned),
      timeout: timeoutMs,
      ...(opts.testServer ? { ca: opts.testServer.ca } : {}),
    },
    allowH2: false,
    connections: 1,
    pipelining: 0,
  });
  try {
    let url = first;
    for (let hop = 0; ; hop += 1) {
      const target = opts.testServer ? withPort(url, opts.testServer.port) : url;
      const answer = await request(target, {
        dispatcher: agent,
        method: "GET",
        signal,
        headers: {
          host: host,
          accept: `${CONTENT_TYPES[links.serves]};q=1, */*;q=0.1`,
          // The body is counted as it comes; a compressed one would be neither counted nor readable.
          "accept-encoding": "identity",
          "user-agent": "SafeWindow result check (+https://safewindow.app)",
        },
      });
      if (answer.statusCode >= 300 && answer.statusCode < 400) {
        await answer.body.dump();
        const location = answer.headers.location;
        const next = typeof location === "string" && URL.canParse(location, url) ? new URL(location, url) : null;
        if (!next || next.protocol !== "https:" || hostOf(next) !== host || next.port !== "" || next.username !== "" || next.password !== "" || hop >= MAX_REDIRECTS) {
          throw refuse("link_redirect", labs);
        }
        url = next;
        continue;
      }
      if (answer.statusCode === 404 || answer.statusCode === 410) {
        await answer.body.dump();
        throw refuse("link_not_found", labs);
      }
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw refuse("link_unreachable", labs);
      }
      const type = String(answer.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
      const encoding = String(answer.headers["content-encoding"] ?? "identity").trim().toLowerCase();
      if (type !== CONTENT_TYPES[links.serves] || encoding !== "identity") {
        await answer.body.dump();
        throw refuse("link_type", labs);
      }
      const declared = Number(answer.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        answer.body.destroy();
        throw tooLarge(maxBytes);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > maxBytes) {
          answer.body.destroy();
          throw tooLarge(maxBytes);
        }
        chunks.push(chunk);
      }
      return { lab, host, kind: links.serves, bytes: new Uint8Array(Buffer.concat(chunks)) };
    }
  } catch (err) {
    if (err instanceof UploadRejectedError) throw err;
    if (signal.aborted) throw refuse("link_slow", labs);
    if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError || err instanceof undiciErrors.ConnectTimeoutError) {
      throw refuse("link_slow", labs);
    }
    throw refuse("link_unreachable", labs);
  } finally {
    void agent.destroy().catch(() => {});
  }
}

function tooLarge(maxBytes: number): UploadRejectedError {
  return new UploadRejectedError("too_large", (w) => w.link_too_large(Math.round(maxBytes / (1024 * 1024))));
}

/** The URL with the test server's port (LabTestServer): the Host header still names the lab's host. */
function withPort(url: URL, port: number): URL {
  const copy = new URL(url);
  copy.port = String(port);
  return copy;
}

/**
 * The test-only lab server (LabTestServer) from LAB_LINKS_TEST_SERVER (`ADDRESS:PORT`, a loopback
 * address) and LAB_LINKS_TEST_CA (a PEM file's path); undefined when the first is unset.
 * @throws Error when it is set but not a loopback address and port, or the CA file cannot be read.
 */
export function labTestServerFromEnv(server: string | undefined, caFile: string | undefined): LabTestServer | undefined {
  if (!server) return undefined;
  const m = /^(.+):(\d{1,5})$/.exec(server);
  const address = m?.[1]?.replace(/^\[|\]$/g, "") ?? "";
  const port = Number(m?.[2]);
  if (!ipaddr.isValid(address) || ipaddr.process(address).range() !== "loopback" || !(port > 0 && port < 65536)) {
    throw new Error("LAB_LINKS_TEST_SERVER must be a loopback ADDRESS:PORT (it is for tests only)");
  }
  if (!caFile) throw new Error("LAB_LINKS_TEST_SERVER needs LAB_LINKS_TEST_CA, the PEM file of its certificate");
  return { address, port, ca: readFileSync(caFile, "utf8") };
}

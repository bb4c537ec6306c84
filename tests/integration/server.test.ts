/**
 * server.ts as operators run it: the production build with the embedded identity authority on a
 * fresh DATA_DIR, security headers, health probes, session cookie, configuration errors, an
 * unreachable identity authority, and graceful shutdown. Needs `npm run build` first (npm test
 * builds before it runs vitest).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import PostalMime from "postal-mime";
import * as messages from "../../app/messages";
import { startBusinessService, type BusinessService } from "../../services/business/server";
import { startConsumerService, type ConsumerService } from "../../services/consumer/server";
import { startIdentityService, type IdentityService } from "../../services/identity/server";
import { form, mailLink, rawGet, root, runServerToExit, scriptAssets, sessionCookieOf, startServer, type Running } from "./server-process";

describe("server.ts with the embedded identity authority", () => {
  let server: Running;
  let dataDir: string;
  const password = "Window#2026a";

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "sw-server-"));
    server = await startServer({ DATA_DIR: dataDir });
  }, 60_000);

  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
  });

  it("answers /healthz and /readyz", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { identity: true, consumer: true, business: true } });
  });

  it("sends a nonce CSP without unsafe-inline scripts, and every script carries the nonce", async () => {
    // Rendered pages (a URL the shared page cache has not seen); its copies are in page-cache.test.ts.
    const response = await fetch(`${server.url}/login?nonce=1`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A new nonce for every response.
    const again = (await fetch(`${server.url}/login?nonce=2`)).headers.get("content-security-policy");
    expect(again).not.toBe(csp);
  });

  it("ships /login with at most 120 KiB of JavaScript, gzip, in English and in Spanish (a gate of bench/README.md; bench/pages measures every page)", async () => {
    // Bytes, not time: what the browser is told to load on the first visit (script src,
    // modulepreload, the inline module's imports), each file gzipped at zlib's default level.
    // The words travel in the loader's data, so both languages load the same files.
    const assetsOf = async (language: string) => {
      const response = await fetch(`${server.url}/login`, { headers: { "accept-language": language } });
      expect(response.headers.get("content-language")).toBe(language);
      return scriptAssets(await response.text());
    };
    const assets = await assetsOf("en");
    expect(assets.length).toBeGreaterThan(2);
    expect(await assetsOf("es")).toEqual(assets);
    let gzip = 0;
    for (const asset of assets) {
      const response = await fetch(`${server.url}${asset}`);
      expect(response.status).toBe(200);
      gzip += gzipSync(new Uint8Array(await response.arrayBuffer())).length;
    }
    expect(gzip).toBeLessThanOrEqual(120 * 1024);
  });

  it("serves the self-removing service worker at the legacy path", async () => {
    const response = await fetch(`${server.url}/service-worker.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(await response.text()).toContain("self.registration.unregister()");
  });

  it("serves the build's top-level files, and a page path never reaches the static files", async () => {
    const icon = await fetch(`${server.url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/svg/);
    expect(await icon.text()).toContain("<svg");
    // A page named like nothing on disk, and a file of the build under another spelling, are pages.
    expect((await fetch(`${server.url}/login`)).headers.get("content-type")).toMatch(/text\/html/);
    expect((await fetch(`${server.url}/favicon.svg/x`)).headers.get("content-type")).toMatch(/text\/html/);
  });

  it("answers a rendered page whole, with its length: plain, and gzip", async () => {
    // URLs the shared page cache has not seen, so each page is rendered (docs/decisions/0021-pages-whole-and-gzipped.md).
    const plain = await rawSocketGet(`${server.url}/login?whole=plain`, "identity");
    expect(plain.head).not.toMatch(/transfer-encoding/i);
    expect(plain.head).not.toMatch(/content-encoding/i);
    expect(plain.head).toMatch(new RegExp(`^content-length: ${plain.body.length}$`, "im"));
    expect(plain.body.toString("utf8")).toContain("<h1>Sign In</h1>");
    expect(plain.body.toString("utf8").trimEnd()).toMatch(/<\/html>$/);
    const gzip = await rawSocketGet(`${server.url}/login?whole=gzip`, "gzip, deflate, br");
    expect(gzip.head).not.toMatch(/transfer-encoding/i);
    expect(gzip.head).toMatch(/^content-encoding: gzip$/im);
    expect(gzip.head).toMatch(/^vary: .*accept-encoding/im);
    expect(gzip.head).toMatch(new RegExp(`^content-length: ${gzip.body.length}$`, "im"));
    expect(gunzipSync(gzip.body).toString("utf8")).toContain("<h1>Sign In</h1>");
  });

  it("writes React Router's own partial manifest into a page rendered with only the page's routes (app/server/page-routes.server.ts)", async () => {
    // The whole manifest, as the build wrote it for the browser; a page names the routes it matched and
    // those matching each ancestor path ("/", "/consumer"), each entry as in the whole manifest.
    const assets = path.join(root, "build", "client", "assets");
    const manifestFile = readdirSync(assets).find((file) => /^manifest-[\w-]+\.js$/.test(file))!;
    const whole = JSON.parse(readFileSync(path.join(assets, manifestFile), "utf8").replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as { routes: Record<string, unknown> };
    const expected: Record<string, string[]> = {
      "/login": ["root", "routes/login", "routes/intro"],
      "/": ["root", "routes/intro"],
      "/consumer/confirmemail?x=1": ["root", "consumer-confirmemail", "routes/intro", "routes/not-found"],
      "/nothing/here/at/all": ["root", "routes/not-found", "routes/intro"],
      "/LOGIN/": ["root", "routes/login", "routes/intro"],
    };
    for (const [page, ids] of Object.entries(expected)) {
      // A cookie outside the shared page cache's key: each page rendered for this request.
      const html = await (await fetch(`${server.url}${page}`, { headers: { cookie: "returning=1" } })).text();
      const written = /window\.__reactRouterManifest = (\{[\s\S]*?\});\n/.exec(html)?.[1];
      expect(written, page).toBeDefined();
      const partial = JSON.parse(written!) as { routes: Record<string, unknown> };
      expect(Object.keys(partial.routes).sort(), page).toEqual([...ids].sort());
      for (const id of ids) expect(partial.routes[id], `${page}: ${id}`).toEqual(whole.routes[id]);
    }
  });

  it("gzips rendered pages on kept compressors: many at once, and after pages whose browser went away, each is whole", async () => {
    const cut = Array.from({ length: 6 }, (_, n) => {
      const request = httpRequest(`${server.url}/login?cut=${n}`, { headers: { "accept-encoding": "gzip" } });
      request.on("error", () => {});
      request.end();
      // Gone before the page is rendered.
      setImmediate(() => request.destroy());
      return request;
    });
    await Promise.all(cut.map((request) => new Promise((resolve) => request.once("close", resolve))));
    const pages = await Promise.all(Array.from({ length: 24 }, (_, n) => rawGet(`${server.url}/login?at-once=${n}`, "gzip, deflate, br")));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.headers["content-encoding"]).toBe("gzip");
      expect(Number(page.headers["content-length"])).toBe(page.body.length);
      const html = gunzipSync(page.body).toString("utf8");
      expect(html).toContain("<h1>Sign In</h1>");
      expect(html.trimEnd()).toMatch(/<\/html>$/);
    }
    // And the server goes on answering.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("compresses pages with gzip even when the browser also accepts br", async () => {
    const page = await rawGet(`${server.url}/login`, "gzip, deflate, br");
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(page.body).toString("utf8")).toContain("<h1>Sign In</h1>");
    // Only br: nothing the middleware makes per request is br; the page comes uncompressed.
    const onlyBr = await rawGet(`${server.url}/login`, "br");
    expect(onlyBr.headers["content-encoding"]).toBeUndefined();
    expect(onlyBr.body.toString("utf8")).toContain("<h1>Sign In</h1>");
  });

  it("leaves pages to their own gzip, and compresses what else it makes per request: data, the route manifest, a resource route's JSON", async () => {
    // A page's gzip is the renderer's (decision 0021): a browser that accepts only deflate gets the
    // page plain, as it did when the middleware left pages alone because they said gzip.
    const deflateOnly = await rawGet(`${server.url}/login?deflate-only=1`, "deflate");
    expect(deflateOnly.status).toBe(200);
    expect(deflateOnly.headers["content-encoding"]).toBeUndefined();
    expect(deflateOnly.body.toString("utf8")).toContain("<h1>Sign In</h1>");
    // The page's data for a client-side navigation: turbo-stream text, compressed by the middleware.
    const data = await rawGet(`${server.url}/login.data`, "gzip, deflate, br");
    expect(data.status).toBe(200);
    expect(data.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(data.body).toString("utf8")).toContain("Sign In");
    const deflated = await rawGet(`${server.url}/login.data`, "deflate");
    expect(deflated.headers["content-encoding"]).toBe("deflate");
    // React Router's lazy route discovery: the manifest of the routes of many paths, JSON.
    const html = await (await fetch(`${server.url}/login`)).text();
    const version = /"version": ?"([^"]+)"/.exec(html)?.[1];
    expect(version).toBeTruthy();
    const paths = ["/registration", "/safewindow", "/mytests", "/people", "/settings", "/reviews/dispute", "/yourinfo", "/verify"].join(",");
    const manifest = await rawGet(`${server.url}/__manifest?version=${version}&paths=${encodeURIComponent(paths)}`, "gzip");
    expect(manifest.status).toBe(200);
    expect(manifest.headers["content-encoding"]).toBe("gzip");
    expect(Object.keys(JSON.parse(gunzipSync(manifest.body).toString("utf8")))).toContain("routes/people");
    // A resource route (no component): the pass's public keys, JSON.
    const keys = await rawGet(`${server.url}/.well-known/safewindow-pass-keys`, "gzip");
    expect(keys.status).toBe(200);
    expect(keys.headers["content-encoding"]).toBe("gzip");
    const keysPlain = await rawGet(`${server.url}/.well-known/safewindow-pass-keys`, "identity");
    expect(keysPlain.headers["content-encoding"]).toBeUndefined();
    expect(gunzipSync(keys.body).equals(keysPlain.body)).toBe(true);
  });

  it("serves hashed assets immutable and compressed", async () => {
    const html = await (await fetch(`${server.url}/login`)).text();
    // The first script of the page large enough for the build to compress (vite.config.ts: from 1 KiB).
    const asset = [...html.matchAll(/href="(\/assets\/[^"]+\.js)"/g)]
      .map((match) => match[1]!)
      .find((href) => statSync(path.join(root, "build", "client", href)).size >= 1024);
    expect(asset).toBeTruthy();
    const onDisk = (suffix: string) => readFileSync(path.join(root, "build", "client", `${asset}${suffix}`));
    // The build wrote brotli and gzip beside the file; each browser gets the best it accepts, as built.
    const br = await rawGet(`${server.url}${asset}`, "gzip, deflate, br");
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.equals(onDisk(".br"))).toBe(true);
    expect(br.body.length).toBeLessThan(onDisk("").length);
    const gzip = await rawGet(`${server.url}${asset}`, "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body.equals(onDisk(".gz"))).toBe(true);
    const plain = await rawGet(`${server.url}${asset}`, "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(onDisk(""))).toBe(true);
    for (const answer of [br, gzip, plain]) {
      expect(answer.headers["cache-control"]).toContain("immutable");
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it("registers through the plain form post: session cookie with only an id, mail in the outbox", async () => {
    const email = `server-${Date.now()}@example.com`;
    const response = await fetch(
      `${server.url}/registration`,
      form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, server.url),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/checkconfirmation");
    const cookies = response.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith("__session="));
    expect(session).toBeTruthy();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//);
    expect(session).not.toContain("eyJ"); // no JWT in the cookie: the token stays on the server
    // The identity authority queues the mail and answers; it is written to the outbox right after.
    expect((await mailLink(path.join(dataDir, "outbox"), email, "/confirmemail")).searchParams.get("token")).toBeTruthy();

    const cookie = session!.split(";")[0]!;
    const page = await fetch(`${server.url}/checkconfirmation`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(email);
    expect(html).not.toMatch(/eyJ[\w-]+\.[\w-]+/); // no token in the HTML
    expect(html).not.toMatch(/127\.0\.0\.1:\d+/); // nor the upstream's address
    expect(server.output()).not.toContain(password);
  });

  it("answers the product's login message for a wrong password, with status 400", async () => {
    const response = await fetch(`${server.url}/login`, form({ email: "nobody@example.com", password: "Wrong#Pass1" }, server.url));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(messages.loginFailed);
  });

  it("refuses a 1 MB field with 413 and keeps serving", async () => {
    const response = await fetch(`${server.url}/login`, form({ email: "a@example.com", password: "x".repeat(1 << 20) }, server.url));
    expect(response.status).toBe(413);
    // The server's own error page says its language as every page does, English while only English is offered.
    expect(response.headers.get("content-language")).toBe("en");
    expect(response.headers.get("vary")).toMatch(/Accept-Language/);
    expect(await response.text()).toContain(`<html lang="en">`);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("answers a malformed body with a 4xx, not a crash", async () => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=nope", origin: server.url },
      body: "garbage",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(600);
    expect(await response.text()).not.toMatch(/at \w+ \(.*:\d+:\d+\)/); // no stack trace
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("stops gracefully on SIGTERM", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
  });
});

describe("server.ts configuration", () => {
  it("a wrong value stops the start with a message naming the variable", async () => {
    const { code, stderr } = await runServerToExit({ BASE_PATH: "no-leading-slash", DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-bad-")) });
    expect(code).toBe(1);
    expect(stderr).toContain("BASE_PATH");
  });

  it("some but not all of the upstream URLs stop the start naming the missing ones, before DATA_DIR is touched", async () => {
    // The scale-out recipe's old mistake: two upstreams elsewhere, the business API left out.
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "sw-partial-")), "data");
    const { code, stderr, stdout } = await runServerToExit({
      DATA_DIR: dataDir,
      IDENTITY_URL: "http://127.0.0.1:9",
      IDENTITY_CLIENT_SECRET: "a-secret-of-sixteen-chars",
      CONSUMER_API_URL: "http://127.0.0.1:9",
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Invalid configuration:\n {2}BUSINESS_API_URL: required when IDENTITY_URL, CONSUMER_API_URL are set/);
    expect(stderr).not.toMatch(/^ {2}(IDENTITY_URL|CONSUMER_API_URL):/m);
    expect(stdout).not.toContain("embedded");
    expect(existsSync(dataDir)).toBe(false);
  }, 30_000);
});

describe("server.ts with the V8 options and malloc settings npm start gives it", () => {
  it("collects the start's garbage once it listens (decision 0013), gives malloc's free memory back then and every MALLOC_TRIM_SECONDS (decision 0018), and answers as usual", async () => {
    const { config } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { nodeOptions: string; glibcTunables: string } };
    const started = await startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-gc-")),
      NODE_OPTIONS: config.nodeOptions,
      GLIBC_TUNABLES: config.glibcTunables,
      LOG_LEVEL: "debug",
      MALLOC_TRIM_SECONDS: "1",
    });
    /** The log lines of the malloc trims so far, parsed (whole lines only: the last may still be arriving). */
    const trims = () =>
      started
        .output()
        .split("\n")
        .slice(0, -1)
        .filter((l) => l.includes('"msg":"freed memory given back"'))
        .map((l) => JSON.parse(l) as { level: number; rssMb: [number, number]; released?: boolean; ms?: number });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const deadline = Date.now() + 10_000;
        const poll = () => {
          const found = started.output().split("\n").find((l) => l.includes("startup garbage collected"));
          if (found) resolve(found);
          else if (Date.now() > deadline) reject(new Error(`no "startup garbage collected" line:\n${started.output()}`));
          else setTimeout(poll, 100);
        };
        poll();
      });
      const { heapTotalMb } = JSON.parse(line) as { heapTotalMb: [number, number] };
      expect(heapTotalMb[1]).toBeLessThan(heapTotalMb[0]);
      // Right after it, the start's trim (info): the start leaves tens of MiB free between live
      // blocks of malloc's arenas (43-57 MiB measured), resident until trimmed.
      await expect.poll(() => trims().length, { timeout: 5_000 }).toBeGreaterThan(0);
      const [atStart] = trims();
      expect(atStart!.level).toBe(30);
      expect(atStart!.rssMb[0] - atStart!.rssMb[1]).toBeGreaterThanOrEqual(10);
      expect((await fetch(`${started.url}/login?gc=1`)).status).toBe(200);
      // Then one every second (debug), off the event loop, each with its duration.
      await expect.poll(() => trims().filter((t) => t.level === 20).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
      for (const periodic of trims().slice(1)) expect(periodic).toMatchObject({ level: 20, released: expect.any(Boolean), ms: expect.any(Number) });
      // glibc took GLIBC_TUNABLES: one thread arena besides the main one ([heap]), where its default
      // made one per thread that allocates (9-13 measured: bench/memory.ts). A thread arena is an
      // anonymous mapping aligned to, and reserved as, 64 MiB (its used part, then its PROT_NONE rest).
      const maps = readFileSync(`/proc/${started.child.pid}/maps`, "utf8").trim().split("\n").map((line) => {
        const [range, perms, , , inode] = line.split(/\s+/);
        const [start, end] = range!.split("-").map((hex) => BigInt(`0x${hex}`));
        return { start: start!, end: end!, perms: perms!, anonymous: inode === "0" && !/\[\w+\]$/.test(line) };
      });
      const arena = 64n << 20n;
      const arenas = maps.filter((m, i) => m.anonymous && m.perms.startsWith("rw") && m.start % arena === 0n && (m.end - m.start === arena || (maps[i + 1]?.start === m.end && maps[i + 1]!.perms.startsWith("---") && maps[i + 1]!.end - m.start === arena)));
      expect(arenas.length).toBe(1);
    } finally {
      started.child.kill("SIGKILL");
    }
  }, 60_000);

  it("without --expose-gc it starts and answers, and collects nothing itself; with MALLOC_TRIM_SECONDS=0 it trims malloc once, at the start", async () => {
    const started = await startServer({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-nogc-")), NODE_OPTIONS: "--max-old-space-size=384", LOG_LEVEL: "debug", MALLOC_TRIM_SECONDS: "0" });
    try {
      expect((await fetch(`${started.url}/login?gc=0`)).status).toBe(200);
      expect(started.output()).not.toContain("startup garbage collected");
      // Longer than the shortest interval (1 s): a 0 taken as an interval would trim in a loop.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(started.output().split("\n").filter((l) => l.includes('"msg":"freed memory given back"'))).toHaveLength(1);
    } finally {
      started.child.kill("SIGKILL");
    }
  }, 60_000);
});

describe("server.ts with the identity authority down", () => {
  let server: Running;

  beforeAll(async () => {
    // All three upstreams elsewhere, none answering (the account forms ask only the identity authority).
    server = await startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-down-")),
      IDENTITY_URL: "http://127.0.0.1:9",
      IDENTITY_CLIENT_SECRET: "a-secret-of-sixteen-chars",
      CONSUMER_API_URL: "http://127.0.0.1:9",
      BUSINESS_API_URL: "http://127.0.0.1:9",
      AUTH_RATE_LIMIT: "4",
    });
  }, 60_000);

  afterAll(() => {
    server.child.kill("SIGKILL");
  });

  it("is alive but not ready", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
  });

  it("answers sign-in and registration with the product's messages instead of crashing", async () => {
    const login = await fetch(`${server.url}/login`, form({ email: "a@example.com", password: "Window#2026a" }, server.url));
    // The authority did not answer: 503, with the product's sign-in message for no answer.
    expect(login.status).toBe(503);
    expect(await login.text()).toContain("Unknown Error: ");
    const registration = await fetch(
      `${server.url}/registration`,
      form({ email: "b@example.com", password: "Window#2026a", confirmPassword: "Window#2026a", acceptTerms: "on", acceptPrivacy: "on" }, server.url),
    );
    expect(registration.status).toBe(503);
    expect(await registration.text()).toContain(messages.registerUnknownError);
    const reset = await fetch(`${server.url}/requestpasswordchange`, form({ email: "c@example.com" }, server.url));
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain(messages.resetRequested.replace(/'/g, "&#x27;"));
    expect(server.child.exitCode).toBeNull();
  });

  it("limits posts to an account form per client address", async () => {
    // The reset posted to /requestpasswordchange by the test above counts too: both paths of the
    // route are one form (app/paths.ts routePathOf), so a path spelled differently does not start a
    // fresh counter.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${server.url}/consumer/requestpasswordchange`, form({ email: "d@example.com" }, server.url));
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe("the identity authority goes away during a session", () => {
  let server: Running;
  let identity: IdentityService;
  let consumer: ConsumerService;
  let business: BusinessService;
  let cookie: string;
  const email = `midway-${Date.now()}@example.com`;

  beforeAll(async () => {
    const clientSecret = "midway-client-secret-0123";
    const logger = pino({ level: "silent" });
    identity = await startIdentityService({
      dataDir: mkdtempSync(path.join(tmpdir(), "sw-midway-id-")),
      publicUrl: "http://127.0.0.1",
      clients: [{ clientId: "safewindow-web", clientSecret }],
      logger,
    });
    business = await startBusinessService({ dataDir: mkdtempSync(path.join(tmpdir(), "sw-midway-business-")), identityUrl: identity.url, logger });
    consumer = await startConsumerService({ dataDir: mkdtempSync(path.join(tmpdir(), "sw-midway-consumer-")), identityUrl: identity.url, businessUrl: business.url, logger });
    server = await startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-midway-")),
      IDENTITY_URL: identity.url,
      IDENTITY_CLIENT_SECRET: clientSecret,
      CONSUMER_API_URL: consumer.url,
      BUSINESS_API_URL: business.url,
    });
    const password = "Window#2026a";
    const registered = await fetch(
      `${server.url}/registration`,
      form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, server.url),
    );
    expect(registered.status).toBe(302);
    cookie = registered.headers.getSetCookie().find((c) => c.startsWith("__session="))!.split(";")[0]!;
    // A profile while the identity authority still answers (the consumer API keeps its keys).
    const created = await fetch(`${server.url}/yourinfo`, {
      ...form({ firstName: "Ada", lastName: "Lovelace", dob: "12/10/1985", postalCode: "10001" }, server.url),
      headers: { ...form({}, server.url).headers, cookie },
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/welcome");
    await identity.close();
  }, 90_000);

  afterAll(async () => {
    server.child.kill("SIGKILL");
    await consumer?.close();
    await business?.close();
  });

  it("shows the product's messages on every account screen", async () => {
    const check = await fetch(`${server.url}/checkconfirmation`, { headers: { cookie } });
    // No answer from the authority is 503 on every screen (a server error would be 502).
    expect(check.status).toBe(503);
    expect(await check.text()).toContain(messages.checkConfirmationFailed);

    const resend = await fetch(`${server.url}/checkconfirmation`, { ...form({}, server.url), headers: { ...form({}, server.url).headers, cookie } });
    expect(resend.status).toBe(503);
    expect(await resend.text()).toContain(messages.sendEmailConfirmationFailed);

    const gate = await fetch(`${server.url}/checkaccountstatus`, { headers: { cookie } });
    expect(gate.status).toBe(503);
    expect(await gate.text()).toContain(messages.accountLookupFailed);

    const confirm = await fetch(`${server.url}/confirmemail?${new URLSearchParams({ email, token: "t" })}`);
    expect(confirm.status).toBe(503);
    const html = await confirm.text();
    expect(html).toContain(messages.emailConfirmFailedShort);
    expect(html).toContain("Resend Confirmation");
    expect(server.child.exitCode).toBeNull();
  });

  it("shows the product's settings messages when the identity authority cannot be asked", async () => {
    const post = (values: Record<string, string>) =>
      fetch(`${server.url}/settings`, { ...form(values, server.url), headers: { ...form({}, server.url).headers, cookie } });
    // The current password cannot be checked either: the change is refused with the product's message.
    const email = await post({ intent: "username", userName: "new-address@example.com", currentPassword: "Window#2026a" });
    expect(email.status).toBe(503);
    expect(await email.text()).toContain(messages.userNameValidationFailed);
    const password = await post({ intent: "password", currentPassword: "Window#2026a", newPassword: "Better!Pass77", confirmPassword: "Better!Pass77" });
    expect(password.status).toBe(503);
    expect(await password.text()).toContain(messages.settingsPasswordChangeFailed);
  });
});

describe("a main screen whose upstream fails while loading", () => {
  let server: Running;
  let identity: IdentityService;
  let consumer: ConsumerService;
  let business: BusinessService;
  let cookie: string;

  beforeAll(async () => {
    const clientSecret = "load-error-client-secret-0123";
    const identityDir = mkdtempSync(path.join(tmpdir(), "sw-loaderr-id-"));
    const logger = pino({ level: "silent" });
    identity = await startIdentityService({ dataDir: identityDir, publicUrl: "http://127.0.0.1", clients: [{ clientId: "safewindow-web", clientSecret }], logger });
    business = await startBusinessService({ dataDir: mkdtempSync(path.join(tmpdir(), "sw-loaderr-business-")), identityUrl: identity.url, logger });
    consumer = await startConsumerService({ dataDir: mkdtempSync(path.join(tmpdir(), "sw-loaderr-consumer-")), identityUrl: identity.url, businessUrl: business.url, logger });
    server = await startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-loaderr-")),
      IDENTITY_URL: identity.url,
      IDENTITY_CLIENT_SECRET: clientSecret,
      CONSUMER_API_URL: consumer.url,
      BUSINESS_API_URL: business.url,
    });
    const email = `load-error-${Date.now()}@example.com`;
    const password = "Window#2026a";
    const registered = await fetch(`${server.url}/registration`, form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, server.url));
    expect(registered.status).toBe(302);
    cookie = sessionCookieOf(registered)!;
    // Confirm the e-mail through the link the authority mailed (its outbox, written after the answer:
    // the mail leaves through the outbox queue), then make a profile.
    const link = await mailLink(path.join(identityDir, "outbox"), email, "/confirmemail?");
    expect((await fetch(`${server.url}/confirmemail${link.search}`)).status).toBe(200);
    const created = await fetch(`${server.url}/yourinfo`, form({ firstName: "Ada", lastName: "Lovelace", dob: "12/10/1985", postalCode: "10001" }, server.url, cookie));
    expect(created.status).toBe(302);
    // The gate keeps the enabled screens in the session; then the consumer API goes away.
    const gate = await fetch(`${server.url}/checkaccountstatus`, { headers: { cookie }, redirect: "manual" });
    expect(gate.headers.get("location")).toBe("/welcome");
    cookie = sessionCookieOf(gate) ?? cookie;
    expect((await fetch(`${server.url}/mytests`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
    await consumer.close();
  }, 90_000);

  afterAll(async () => {
    server.child.kill("SIGKILL");
    await business?.close();
    await identity.close();
  });

  it.each(["/safewindow", "/mytests", "/people"])("%s shows the load error with 'Try again' and keeps the tab bar", async (screen) => {
    const response = await fetch(`${server.url}${screen}`, { headers: { cookie }, redirect: "manual" });
    // The consumer API cannot be reached: 503 (the service is briefly unavailable), not our 500.
    expect(response.status).toBe(503);
    const html = await response.text();
    // What the page shows: the root's data (in the hydration script) carries every error page word
    // of the page's language, for an error of a later navigation (app/error-page.ts).
    const shown = html.slice(html.indexOf("<main>"), html.indexOf("</main>"));
    expect(shown).toContain(messages.loadFailed);
    expect(shown).toContain(messages.upstreamUnavailable);
    expect(shown).not.toContain(messages.serverError);
    expect(html).toMatch(new RegExp(`<a[^>]*href="${screen}"[^>]*>Try again</a>`));
    expect(html).toContain('aria-label="Main"'); // the tab bar
    expect(html).not.toMatch(/127\.0\.0\.1:\d+/); // no upstream address
    expect(server.child.exitCode).toBeNull();
  });

  it("an unknown result is 'not found' inside the main layout", async () => {
    const response = await fetch(`${server.url}/testdetail?id=00000000-0000-0000-0000-000000000000`, { headers: { cookie }, redirect: "manual" });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toContain('aria-label="Main"');
  });
});

/** GET over a raw socket with `acceptEncoding`; returns the header block as sent and the body's bytes as they came (framing included). */
function rawSocketGet(url: string, acceptEncoding: string): Promise<{ head: string; body: Buffer }> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    // Written, not ended: a browser keeps its side open until the answer is in (Connection: close ends it then).
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept-Encoding: ${acceptEncoding}\r\nConnection: close\r\n\r\n`),
    );
    const received: Buffer[] = [];
    socket.on("data", (data: Buffer) => received.push(data));
    socket.on("error", reject);
    socket.on("end", () => {
      const raw = Buffer.concat(received);
      const headerEnd = raw.indexOf("\r\n\r\n");
      resolve({ head: raw.subarray(0, headerEnd).toString("latin1"), body: raw.subarray(headerEnd + 4) });
    });
  });
}

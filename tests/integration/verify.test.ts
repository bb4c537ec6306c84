/**
 * /verify as a server (docs/product/pass.md §11.5, docs/security/data.md "The SafeWindow Pass"): a check
 * posted without JavaScript, as pasted text or as a photo of the QR code, is answered on the same
 * screen and leaves no trace of the pass in the log, even at debug level; the route has its own rate
 * limit and body cap; its first-load JavaScript stays within 40 KiB gzip above the shell /login
 * loads, the QR decoder loaded only on demand; the published keys are a JWK Set anyone may fetch.
 * Needs `npm run build` first.
 */
import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { generateKeyPair } from "jose";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxPassPhotoMegabytes } from "../../app/limits";
import * as messages from "../../app/messages";
import { passUrl, signPass } from "../../contracts/pass";
import { scriptAssets, startServer, type Running } from "./server-process";

let server: Running;
const VERIFY_RATE_LIMIT = 12;

beforeAll(async () => {
  server = await startServer({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "sw-verify-")), LOG_LEVEL: "debug", VERIFY_RATE_LIMIT: String(VERIFY_RATE_LIMIT) });
}, 90_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
});

/** A well-formed pass for this server's address, signed with a key it does not know. */
async function foreignPass(): Promise<{ pass: string; url: string }> {
  const { privateKey } = await generateKeyPair("ES256");
  const now = Math.floor(Date.now() / 1000);
  const pass = await signPass({ iss: server.url, n: "QZ", b: "02-29", s: now + 3600, iat: now, exp: now + 7200 }, { kid: "zzzzzzzz", privateKey });
  return { pass, url: passUrl(server.url, pass) };
}

/** POSTs `body` to /verify as the page's form does (same origin). */
function postCheck(body: FormData): Promise<Response> {
  return fetch(`${server.url}/verify`, { method: "POST", body, headers: { origin: server.url } });
}

/** The verdict's words in an answered page: the big word and the reason or details under it. */
function verdictIn(html: string): string {
  return /class="glance[^"]*"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1]?.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim() ?? "";
}

describe("/verify without JavaScript", () => {
  it("checks pasted text and a photo of the code, answers the same screen, and logs neither the pass nor the photo", async () => {
    const { pass, url } = await foreignPass();
    const logFrom = server.output().length;
    const pasted = new FormData();
    pasted.set("pass", url);
    const byText = await postCheck(pasted);
    expect(byText.status).toBe(200);
    expect(verdictIn(await byText.text())).toContain(messages.verifyReasons.unknown_key);

    const photo = new FormData();
    photo.set("pass", "");
    photo.set("photo", new File([new Uint8Array(await QRCode.toBuffer(url, { errorCorrectionLevel: "M", margin: 4, scale: 6 }))], "qr.png", { type: "image/png" }));
    const byPhoto = await postCheck(photo);
    expect(byPhoto.status).toBe(200);
    expect(verdictIn(await byPhoto.text())).toContain(messages.verifyReasons.unknown_key);

    // A URL to somewhere else, and an image that is not a code: red with the reason, never a 500.
    const elsewhere = new FormData();
    elsewhere.set("pass", passUrl("https://evil.example", pass));
    expect(verdictIn(await (await postCheck(elsewhere)).text())).toContain(messages.verifyReasons.other_issuer);
    const notImage = new FormData();
    notImage.set("photo", new File([new TextEncoder().encode(`<svg>${pass}</svg>`)], "qr.png", { type: "image/png" }));
    expect(verdictIn(await (await postCheck(notImage)).text())).toContain(messages.verifyPhotoReasons(maxPassPhotoMegabytes).not_image);

    // Both posts were logged (at debug, every line), and no line carries the pass or any part of it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = server.output().slice(logFrom);
    expect(log).toMatch(/"url":"\/verify"/);
    for (const part of pass.split(".")) expect(log).not.toContain(part.slice(0, 24));
  });

  it("refuses a body over the photo cap unread, and counts checks per address (429 with the page's words)", async () => {
    // A body that says it is 13 MiB is answered 413 before a byte of it is read.
    const url = new URL(`${server.url}/verify`);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { origin: server.url, "content-type": "multipart/form-data; boundary=x", "content-length": String(13 * 1024 * 1024) } },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      request.on("error", reject);
      request.write("--x\r\n");
    });
    expect(status).toBe(413);
    // Each address has VERIFY_RATE_LIMIT checks a minute; the test's earlier posts counted too.
    let limited: Response | undefined;
    for (let i = 0; i < VERIFY_RATE_LIMIT + 1 && !limited; i += 1) {
      const body = new FormData();
      body.set("pass", "not a pass");
      const answer = await postCheck(body);
      if (answer.status === 429) limited = answer;
      else expect(answer.status).toBe(200);
    }
    expect(limited?.headers.get("retry-after")).toBe("60");
    expect(await limited!.text()).toContain(messages.verifyTooMany);
    // Reading the page is not limited.
    expect((await fetch(`${server.url}/verify`)).status).toBe(200);
  });
});

describe("/verify's page", () => {
  it("loads at most 40 KiB of JavaScript, gzip, above the shell /login loads; the QR decoder and its WebAssembly only on demand", async () => {
    const login = new Set(scriptAssets(await (await fetch(`${server.url}/login`)).text()));
    const verify = scriptAssets(await (await fetch(`${server.url}/verify`)).text());
    const own = verify.filter((asset) => !login.has(asset));
    expect(own.length).toBeGreaterThan(0);
    expect(verify.some((asset) => /qr-decoder|zxing/.test(asset))).toBe(false);
    let gzip = 0;
    for (const asset of own) {
      const response = await fetch(`${server.url}${asset}`);
      expect(response.status).toBe(200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(new TextDecoder().decode(bytes)).not.toMatch(/zxing_reader[^"']*\.wasm/);
      gzip += gzipSync(bytes).length;
    }
    expect(gzip).toBeLessThanOrEqual(40 * 1024);
  });

  it("publishes the keys as a JWK Set of public EC keys, cacheable and open to other sites", async () => {
    const answer = await fetch(`${server.url}/.well-known/safewindow-pass-keys`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/jwk-set+json");
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const { keys } = (await answer.json()) as { keys: Record<string, string>[] };
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"]);
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    }
  });
});

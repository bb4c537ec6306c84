/**
 * server.ts as a child process, the way operators run it (the production build; `npm run build`
 * first, which npm test does): start it with an environment, talk to it over HTTP, stop it.
 * Shared by the integration tests of server.ts and of scale-out with Redis.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import path from "node:path";
import PostalMime from "postal-mime";
import { pgliteTemplateImport } from "../global-setup.ts";

/** The project root, where server.ts is. */
export const root = path.resolve(import.meta.dirname, "../..");
/** This Node (24), to run server.ts with. */
export const node = process.execPath;

/** Node's compile cache directory, as `npm start` gives it (package.json config.compileCache), made absolute. */
export const compileCache = path.join(root, (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { config: { compileCache: string } }).config.compileCache);

/**
 * The whole environment of a process a test starts: PATH, the run's blank database to copy and the
 * preload that copies it (PGLITE_TEMPLATE and tests/pglite-template.mjs, tests/global-setup.ts;
 * `PGLITE_TEMPLATE: ""` in `env` makes the process run initdb itself), Node's compile cache as
 * `npm start` sets it (docs/decisions/0017-module-compile-cache.md), then `env`. A NODE_OPTIONS in
 * `env` comes after the preload, which then runs first and alone in initdb's child.
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const template = process.env.PGLITE_TEMPLATE;
  if (!template) return { PATH: process.env.PATH ?? "", NODE_COMPILE_CACHE: compileCache, ...env };
  const nodeOptions = [pgliteTemplateImport, env.NODE_OPTIONS].filter(Boolean).join(" ");
  return { PATH: process.env.PATH ?? "", PGLITE_TEMPLATE: template, NODE_COMPILE_CACHE: compileCache, ...env, NODE_OPTIONS: nodeOptions };
}

/** A started server.ts. */
export interface Running {
  child: ChildProcess;
  /** http://127.0.0.1:<port>, no trailing slash */
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

/**
 * Starts server.ts with `env` (over NODE_ENV=production, HOST=127.0.0.1, PORT=0) on an
 * ephemeral port, from the project root or `options.cwd` (an assembled image).
 * @throws when it exits or does not listen within 90 s; the error carries its output
 */
export function startServer(env: Record<string, string>, options: { cwd?: string } = {}): Promise<Running> {
  const child = spawn(node, ["server.ts"], {
    cwd: options.cwd ?? root,
    env: childEnv({ NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // A server that does not start in time is killed, never left running after the test.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output}`));
    }, 90_000);
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const match = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!.replace("localhost", "127.0.0.1"), output: () => output, exited });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((code) => reject(new Error(`server exited ${code}:\n${output}`)));
  });
}

/** Runs server.ts with `env` until it exits by itself (a start that must fail); `stdout` holds its log lines. */
export async function runServerToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(node, ["server.ts"], { cwd: root, env: childEnv(env) });
  let stderr = "";
  let stdout = "";
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, stderr, stdout };
}

/** fetch options of a URL-encoded form post from `origin` (React Router checks the Origin), not following redirects. */
export function form(values: Record<string, string>, origin: string, cookie?: string): RequestInit {
  return {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(values).toString(),
  };
}

/** The `name=value` part of the response's __session Set-Cookie, if it set one. */
export function sessionCookieOf(response: Response): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith("__session="))?.split(";")[0];
}

/** GET `url` with `Accept-Encoding: encoding` and `headers`, the body as sent (not decoded). */
export function rawGet(url: string, encoding: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { "accept-encoding": encoding, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

/** The link containing `linkPart` in a mail to `to` in `outbox` (a service's DATA_DIR/outbox); waits up to 20 s. */
export async function mailLink(outbox: string, to: string, linkPart: string): Promise<URL> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    let files: string[] = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    } catch {
      // no mail yet
    }
    for (const file of files) {
      const mail = await PostalMime.parse(readFileSync(path.join(outbox, file), "utf8"));
      if (!(mail.to ?? []).some((a) => "address" in a && a.address?.toLowerCase() === to)) continue;
      const link = [...(mail.text ?? "").matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]).find((l) => l.includes(linkPart));
      if (link) return new URL(link);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to} with a ${linkPart} link in ${outbox}`);
}

/** GET `pathAndQuery` on `server` with `cookie`, not following redirects. */
export function get(server: Running, pathAndQuery: string, cookie: string): Promise<Response> {
  return fetch(`${server.url}${pathAndQuery}`, { headers: { cookie }, redirect: "manual" });
}

/** The upload form's post (multipart, file field `file`), as a browser without JavaScript sends it. */
export function upload(server: Running, cookie: string, pdf: Uint8Array): Promise<Response> {
  const body = new FormData();
  body.append("file", new Blob([pdf.slice()], { type: "application/pdf" }), "result.pdf");
  return fetch(`${server.url}/mytests`, { method: "POST", redirect: "manual", headers: { origin: server.url, cookie }, body });
}

/**
 * A user as a browser without JavaScript makes one on `server`: registration, the confirmation link from
 * `outbox` (the identity authority's DATA_DIR/outbox), sign-in, and the profile (Grace Hopper, 12/09/1986,
 * 10001). @returns the session cookie (`__session=…`)
 */
export async function signedUpUser(server: Running, outbox: string, email: string, password = "Window#2026a"): Promise<string> {
  const registered = await fetch(`${server.url}/registration`, form({ email, password, confirmPassword: password, acceptTerms: "on", acceptPrivacy: "on" }, server.url));
  if (registered.headers.get("location") !== "/checkconfirmation") throw new Error(`registration answered ${registered.status}`);
  const link = await mailLink(outbox, email, "/confirmemail");
  if ((await fetch(`${server.url}/confirmemail${link.search}`)).status !== 200) throw new Error("confirmation failed");
  const signedIn = await fetch(`${server.url}/login`, form({ email, password }, server.url));
  const cookie = sessionCookieOf(signedIn);
  if (!cookie) throw new Error(`sign-in answered ${signedIn.status} without a session`);
  const profile = await fetch(`${server.url}/yourinfo`, form({ firstName: "Grace", lastName: "Hopper", dob: "12/09/1986", postalCode: "10001" }, server.url, cookie));
  if (profile.headers.get("location") !== "/welcome") throw new Error(`profile answered ${profile.status}`);
  return cookie;
}

/**
 * The same-origin JavaScript files an HTML page makes the browser load at once: `<script src>`,
 * `<link rel="modulepreload" href>`, and static `import` specifiers inside inline module scripts;
 * each path once, in order of appearance.
 */
export function scriptAssets(html: string): string[] {
  const found: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const isScript = tag.startsWith("<script");
    if (!isScript && !/\brel="modulepreload"/.test(tag)) continue;
    const url = new RegExp(`\\b${isScript ? "src" : "href"}="([^"]+)"`).exec(tag)?.[1];
    if (url) found.push(url);
  }
  for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, specifier] of body!.matchAll(/\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"']+\.js)["']/g)) found.push(specifier!);
  }
  return [...new Set(found.filter((u) => u.startsWith("/") && !u.startsWith("//")))];
}

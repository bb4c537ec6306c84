/**
 * The web app's Express pipeline (docs/architecture/README.md §3), the input of the Vite server build as in
 * React Router's node-custom-server template: server.ts loads it once, from build/server/index.js in
 * production and through Vite's `ssrLoadModule` with `--dev`, so that this module and every app
 * module it reaches exist once in the process, with the build's own context keys and metrics.
 *
 * Order: request log, the refusal of a target that is not a path and of a method React Router does
 * not serve, request metrics and GET /metrics (with METRICS_TOKEN), the CSP nonce and
 * Permissions-Policy, helmet, gzip compression, /healthz and /readyz, the cross-site refusal, body
 * limits and the refusal of a body that is not a form, the account-form and pass-check rate
 * limits, static assets (or Vite's middleware), the shared page cache, React Router's request
 * handler, and the error page. Checks that follow one another are one middleware each group:
 * every layer of Express's router costs every request a match and a closure.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import helmet from "helmet";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { RedisReply } from "rate-limit-redis";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { createRequestHandler } from "@react-router/express";
import { maxFormBodyBytes, maxPassPhotoMegabytes, maxUploadMegabytes, maxVerifyBodyBytes, uploadDiscardLimitBytes } from "../app/limits.ts";
import { paths, routePathOf } from "../app/paths.ts";
import { acceptsGzip } from "../app/server/gzip.server.ts";
import { defaultLanguage, type Language } from "../app/i18n.ts";
import { messagesIn, type Messages } from "../app/messages/catalogues.ts";
import { sharedPageCookies } from "../app/entry.server.tsx";
import { createAttemptLimits, formName, minutesToWait, rateLimitRejections } from "../app/server/attempt-limits.server.ts";
import { setAppConfig, type Config } from "../app/server/config.server.ts";
import { requestContext, type PhotoRead } from "../app/server/context.ts";
import { isCrossSite } from "../app/server/crosssite.server.ts";
import { cspNonce } from "../app/server/csp-nonce.server.ts";
import { isFormContentType } from "../app/server/form.server.ts";
import { httpMetrics, metricsEndpoint, routePaths } from "../app/server/http-metrics.server.ts";
import { headersLanguage, negotiatedLanguage } from "../app/server/i18n.server.ts";
import { httpSerializers, requestId } from "../app/server/log.server.ts";
import { createSharedPageCache, policyWithHashes, type PageCacheSlot } from "../app/server/page-cache.server.ts";
import type { RedisClient } from "../app/server/redis.server.ts";
import type { SessionDataStore } from "../app/server/session-store.server.ts";
import type { MetricsSource } from "../lib/metrics.ts";

/** Where the app finds its upstreams: the URLs server.ts was given, or those of the services it started. */
export interface Upstreams {
  identityUrl: string;
  consumerUrl: string;
  businessUrl: string;
  /** The app's client secret at the identity authority (IDENTITY_CLIENT_SECRET or the one kept in DATA_DIR). */
  identityClientSecret: string;
}

/** What server.ts resolved before the app starts. */
export interface AppOptions {
  /** The parsed configuration (app/server/config.server.ts); its upstream fields are replaced by `upstreams`. */
  config: Config;
  /** The process logger; every request logs through a child of it. */
  log: Logger;
  upstreams: Upstreams;
  /** SESSION_SECRET, or the one kept in DATA_DIR (at least 32 characters). */
  sessionSecret: string;
  /** Where sessions are kept (Redis, the embedded database or PostgreSQL). */
  sessions: SessionDataStore;
  /** With REDIS_URL: the connection the rate-limit counters use (shared by the replicas); else they stay in memory. */
  redis?: RedisClient;
  /** Redis reachable now (for /readyz); only with `redis`. */
  redisReachable?: () => Promise<boolean>;
  /**
   * Aborted by server.ts when its drain begins (SIGTERM or SIGINT): handed to every request as the
   * request context's `draining` (app/server/context.ts), so that uploads still waiting for their
   * turn are answered busy at once instead of outlasting the drain (app/server/upstream/upload-queue.server.ts).
   */
  draining: AbortSignal;
  /** The series registered outside this build (the data thread's: the embedded services'), merged into GET /metrics. */
  otherMetrics?: MetricsSource;
  /**
   * Static files: the production build's client folder (hashed assets served immutable), or Vite's
   * middleware in development (then no CSP, no page cache, and the build is loaded per request).
   */
  assets: { clientDir: string } | { vite: RequestHandler };
  /**
   * With --dev only: React Router's context class as Node loads it for @react-router/express, whose
   * handler checks the load context with `instanceof`; Vite loads this module's own react-router
   * with the development condition, another copy. In the build both are the same.
   */
  routerContextProvider?: typeof RouterContextProvider;
  /** Reads the QR code of a photo posted to /verify, on a worker thread (server/qr-photo.ts, started by server.ts). */
  readQrPhoto: (bytes: Uint8Array) => Promise<PhotoRead>;
}

/** The React Router build of this bundle (the template's virtual module, resolved by the React Router plugin). */
const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;

/**
 * Hands the resolved configuration to the app once (app/server/config.server.ts `setAppConfig`) and
 * builds the Express app; it does not listen (server.ts does).
 * @returns the app, ready for `listen`
 * @throws when the production build's client folder cannot be read
 */
export async function createApp(options: AppOptions): Promise<Express> {
  const { config, log, upstreams, sessions, redis } = options;
  setAppConfig({
    ...config,
    IDENTITY_URL: upstreams.identityUrl,
    CONSUMER_API_URL: upstreams.consumerUrl,
    BUSINESS_API_URL: upstreams.businessUrl,
    IDENTITY_CLIENT_SECRET: upstreams.identityClientSecret,
    SESSION_SECRET: options.sessionSecret,
  });
  const dev = "vite" in options.assets;
  const base = config.basePrefix;
  const build = dev ? undefined : await loadBuild();
  const knownRoutes = build ? routePaths(build.routes) : undefined;

  /**
   * Answers `req` with a small self-contained error page (no scripts, no stack trace) in the
   * request's language (the chosen one's cookie, else Accept-Language: `headersLanguage`), its
   * message `words` of that language's catalogue; with `Content-Language` and `Vary: Accept-Language`
   * as every page of the app (docs/architecture/behaviour.md §4 "Language").
   */
  const sendErrorPage = async (req: Request, res: Response, words: (m: Messages) => string) => {
    let language: Language = defaultLanguage;
    try {
      language = await headersLanguage(req.headers.cookie, req.headers["accept-language"]);
    } catch (error) {
      req.log.warn({ err: error }, "error page language unknown");
    }
    const m = messagesIn(language);
    res
      .set("Content-Language", language)
      .vary("Accept-Language")
      .type("html")
      .send(
        `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>SafeWindow</title></head><body><main><h1>SafeWindow</h1><p>${words(m)}</p><p><a href="${base}/">${m.goToStartPage}</a></p></main></body></html>`,
      );
  };

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);

  app.use(
    pinoHttp({
      logger: log,
      genReqId: requestId(app.get("trust proxy fn")),
      serializers: httpSerializers,
      customLogLevel: (_req, res, err) => accessLogLevel(res.statusCode, res.getHeader("retry-after") !== undefined, Boolean(err)),
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
    }),
  );

  // What React Router cannot serve is answered here, before anything reads the request, in one
  // middleware (each layer of Express's router costs every request a match and a closure).
  // - A request target in absolute form (`POST http://host/login`, RFC 9112 §3.2.2) is meant for a
  //   proxy, and no browser sends one to an origin: 400, before anything builds a URL of it.
  // - The methods React Router serves are GET, HEAD, POST, PUT, PATCH and DELETE; it answers any
  //   other with an error its page cannot render (no request context yet). OPTIONS says what is
  //   allowed (no CORS: nothing is offered to other sites), and any other method is 405.
  app.use((req, res, next) => {
    if (!req.url.startsWith("/")) {
      req.log.warn("request target not a path");
      res.status(400);
      void sendErrorPage(req, res, (m) => m.requestUnreadable);
      return;
    }
    if (routerMethods.has(req.method)) return next();
    res.set("Allow", [...routerMethods].join(", "));
    if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    res.status(405);
    void sendErrorPage(req, res, (m) => m.requestUnreadable);
  });

  // With METRICS_TOKEN, every answer counted and timed by route, and GET /metrics for the token
  // (app/server/http-metrics.server.ts); without it, no request pays for counts nobody can read.
  if (config.METRICS_TOKEN) {
    app.use(httpMetrics({ basePrefix: base, routes: () => knownRoutes }));
    app.get("/metrics", metricsEndpoint(config.METRICS_TOKEN, options.otherMetrics));
  }

  // Per response, in one middleware: the CSP nonce, the route the path names (`routePathOf`, read
  // once for the policies, limits and compression below), and Permissions-Policy. No page but the
  // pass checker uses the camera, and none the microphone, payments or USB: browsers refuse them to
  // every frame and script of the app; the camera only to /verify itself, the position only to our
  // own pages (Locations' "Near me"; docs/security/input.md "Headers").
  const assetsPrefix = `${base}/assets/`;
  const permissions = (camera: string) => `camera=${camera}, microphone=(), geolocation=(self), payment=(), usb=(), browsing-topics=()`;
  const [checkerPermissions, pagePermissions] = [permissions("(self)"), permissions("()")];
  app.use((req, res, next) => {
    res.locals.cspNonce = cspNonce();
    const route = routePathOf(req.path, base);
    res.locals.routePath = route;
    res.setHeader("Permissions-Policy", route === paths.verify ? checkerPermissions : pagePermissions);
    next();
  });

  app.use(
    helmet({
      contentSecurityPolicy: dev
        ? false
        : {
            useDefaults: false,
            directives: {
              defaultSrc: ["'self'"],
              // The pass checker alone may compile WebAssembly: its QR decoder, loaded when its camera starts.
              scriptSrc: [
                "'self'",
                (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'${routeOf(res as Response) === paths.verify ? " 'wasm-unsafe-eval'" : ""}`,
              ],
              styleSrc: ["'self'"],
              imgSrc: ["'self'", "data:", "blob:"],
              fontSrc: ["'self'"],
              connectSrc: ["'self'"],
              formAction: ["'self'"],
              frameAncestors: ["'none'"],
              baseUri: ["'self'"],
              objectSrc: ["'none'"],
              ...(config.publicUrl.startsWith("https:") ? { upgradeInsecureRequests: [] } : {}),
            },
          },
      // helmet's default no-referrer makes Chromium send `Origin: null` on form posts, which
      // React Router's CSRF check rejects (docs/architecture/README.md §2).
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      strictTransportSecurity: config.publicUrl.startsWith("https:"),
      // CSP frame-ancestors 'none' already forbids framing; the legacy header said less (SAMEORIGIN).
      xFrameOptions: false,
    }),
  );
  // Rendered pages come gzipped from app/entry.server.tsx (decision 0021), so a request for a page
  // does not enter the compression middleware, whose wrapping of every answer (its write and end,
  // the header hook, Vary, the negotiation) cost a page CPU for nothing (bench/README.md "What the
  // sixth round cut"). A page request is a GET or HEAD that React Router
  // answers with a document: not an asset, not a `.data` or route-manifest request, not a resource
  // route (a route without a component: a PDF, an image, JSON). Everything else made per request is
  // compressed as before, and in development everything: with gzip, even for a browser that also
  // accepts br (on our 8-11 KB pages brotli saved about 80 bytes, 3%, and cost a quarter of GET
  // /login's requests/s, its encoder state being set up for every answer: bench/pages.results.md).
  // The middleware prefers br whenever it is accepted, so br is taken out of what it reads; the
  // hashed assets, compressed once at build time, keep brotli (their own middleware, below, reads
  // the header as the browser sent it).
  const compress = compression();
  const notPages = build ? nonPageRoutes(build) : undefined;
  app.use((req, res, next) => {
    const asset = req.path.startsWith(assetsPrefix);
    const page = notPages !== undefined && (req.method === "GET" || req.method === "HEAD") && !asset && !req.path.endsWith(".data") && !notPages.has(routeOf(res));
    if (page) return next();
    const accepted = req.headers["accept-encoding"];
    if (accepted && !asset) {
      req.headers["accept-encoding"] = accepted
        .split(",")
        .filter((coding) => coding.split(";")[0]!.trim().toLowerCase() !== "br")
        .join(",");
    }
    compress(req, res, next);
  });

  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });

  // The upstreams are asked at most once a second, however often /readyz is called: the calls in
  // that second (and those at once) share one round of checks, so probing /readyz cannot make the
  // app flood its upstreams (docs/operating.md, the `/readyz` line).
  let readiness: { askedAt: number; checks: Promise<Record<string, boolean | undefined>> } | undefined;
  const readinessChecks = async () => {
    const [identity, consumer, business, redisUp] = await Promise.all([
      reachable(`${upstreams.identityUrl}/healthz`),
      reachable(`${upstreams.consumerUrl}/healthz`),
      reachable(`${upstreams.businessUrl}/healthz`),
      redis ? options.redisReachable?.() : undefined,
    ]);
    return { identity, consumer, business, ...(redis ? { redis: redisUp } : {}) };
  };
  app.get("/readyz", async (_req, res) => {
    const now = Date.now();
    if (!readiness || now - readiness.askedAt >= readinessIntervalMs) readiness = { askedAt: now, checks: readinessChecks() };
    const checks = await readiness.checks;
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ ready, checks });
  });

  // State-changing requests from other sites, and bodies the app will not read, are refused before
  // anything acts on them, whatever the route, in one middleware:
  // - cross-site: Fetch Metadata, then Origin (app/server/crosssite.server.ts), 403;
  // - bodies are bounded before anything reads them: forms are small, the upload form carries one
  //   PDF; a body without a declared length (chunked) is refused (411), so none is buffered
  //   unbounded, and one over its limit is 413;
  // - a state-changing request reaches an action only with a form's body: urlencoded, or multipart
  //   with a boundary (app/server/form.server.ts). Anything else (no Content-Type, text/plain, JSON,
  //   a multipart type without its boundary) is 415, unread, instead of failing in an action.
  const trustedOrigins = [new URL(config.publicUrl).origin];
  app.use((req, res, next) => {
    const site = { method: req.method, secFetchSite: req.get("sec-fetch-site"), origin: req.get("origin"), host: req.get("host") ?? "" };
    if (isCrossSite(site, trustedOrigins)) {
      req.log.warn({ origin: site.origin, secFetchSite: site.secFetchSite }, "cross-site request refused");
      res.status(403);
      void sendErrorPage(req, res, (m) => m.crossSiteRefused);
      return;
    }
    if (req.headers["transfer-encoding"] && !req.headers["content-length"]) {
      res.status(411).set("Connection", "close");
      void sendErrorPage(req, res, (m) => m.bodyWithoutLength);
      return;
    }
    const length = Number(req.headers["content-length"] ?? 0);
    const body = bodyMethods.has(req.method);
    // An upload a little over its limit reaches the upload form's action, which answers with the
    // form's own message (app/limits.ts); only absurd sizes are refused here, unread.
    const route = body ? routeOf(res) : undefined;
    const upload = route === paths.mytests;
    // The pass checker's form may carry a phone's photo of a QR code (app/limits.ts maxVerifyBodyBytes).
    const limit = upload ? uploadDiscardLimitBytes : route === paths.verify ? maxVerifyBodyBytes : maxFormBodyBytes;
    if (length > limit) {
      req.log.warn({ length }, "request body too large");
      res.status(413).set("Connection", "close");
      void sendErrorPage(req, res, (m) => (upload ? m.uploadTooLarge(maxUploadMegabytes) : route === paths.verify ? m.verifyPhotoReasons(maxPassPhotoMegabytes).too_large : m.formBodyTooLarge));
      return;
    }
    if (!body || isFormContentType(req.headers["content-type"])) return next();
    req.log.warn({ contentType: req.headers["content-type"]?.slice(0, 100) }, "request body not a form");
    res.status(415).set("Accept-Post", "application/x-www-form-urlencoded, multipart/form-data");
    void sendErrorPage(req, res, (m) => m.requestUnreadable);
  });

  // Sign-in and account forms: at most AUTH_RATE_LIMIT posts per client address and form in 10
  // minutes, against password guessing and mail flooding, whatever the spelling of the path
  // (formName). The route actions add limits per target account and per mail recipient
  // (attemptLimits, in the load context). The counters are in Redis with REDIS_URL (shared by the
  // replicas), else in this process's memory.
  // rate-limit-redis is loaded only with REDIS_URL, as the Redis client is (app/server/redis.server.ts).
  const { RedisStore } = redis ? await import("rate-limit-redis") : {};
  const redisStore =
    RedisStore && redis
      ? (prefix: string) => new RedisStore({ prefix, sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply> })
      : undefined;
  const attemptLimits = createAttemptLimits(redisStore);
  // Both limits count the requests that run an action (a form's POST, and PUT, PATCH or DELETE,
  // which React Router sends to the same action), one after the other in one middleware; a page
  // view does not enter express-rate-limit at all (its own `skip` runs after work of its own on
  // every request).
  const postsOnly =
    (...limiters: RequestHandler[]): RequestHandler =>
    (req, res, next) => {
      if (!bodyMethods.has(req.method)) return next();
      let at = 0;
      const step = (error?: unknown) => (error !== undefined || at === limiters.length ? next(error) : limiters[at++]!(req, res, step));
      step();
    };
  app.use(
    postsOnly(
      rateLimit({
        windowMs: 10 * 60 * 1000,
        limit: config.AUTH_RATE_LIMIT,
        standardHeaders: "draft-8",
        legacyHeaders: false,
        skip: (req) => !bodyMethods.has(req.method) || !formName(req.path, base),
        keyGenerator: (req) => `${ipKeyGenerator(req.ip ?? "")}|${formName(req.path, base)}`,
        store: redisStore?.("safewindow:ratelimit:"),
        handler: (req, res) => {
          req.log.warn("account form rate limit reached");
          rateLimitRejections.inc({ limit: "formsPerAddress" });
          const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
          const seconds = resetTime ? Math.ceil((resetTime.getTime() - Date.now()) / 1000) : 600;
          res.status(429).set("Retry-After", String(Math.max(1, seconds)));
          void sendErrorPage(req, res, (m) => m.tooManyAttempts(minutesToWait(seconds)));
        },
      }),
      // The pass checker's form (docs/product/pass.md §11.5): at most VERIFY_RATE_LIMIT checks a minute
      // per client address, each of which may decode a photo on the QR worker.
      rateLimit({
        windowMs: 60 * 1000,
        limit: config.VERIFY_RATE_LIMIT,
        standardHeaders: "draft-8",
        legacyHeaders: false,
        skip: (req, res) => !bodyMethods.has(req.method) || routeOf(res) !== paths.verify,
        keyGenerator: (req) => ipKeyGenerator(req.ip ?? ""),
        store: redisStore?.("safewindow:verifylimit:"),
        handler: (req, res) => {
          req.log.warn("pass check rate limit reached");
          rateLimitRejections.inc({ limit: "verifyPerAddress" });
          res.status(429).set("Retry-After", "60");
          void sendErrorPage(req, res, (m) => m.verifyTooMany);
        },
      }),
    ),
  );

  if ("vite" in options.assets) {
    app.use(options.assets.vite);
  } else {
    const client = options.assets.clientDir;
    // Hashed assets: immutable, and served from the brotli or gzip file the build wrote beside each
    // (vite.config.ts), as the browser accepts; the compression middleware leaves encoded answers alone.
    app.use(
      `${base}/assets`,
      expressStaticGzip(path.join(client, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gzip"],
        index: false,
        serveStatic: { immutable: true, maxAge: "1y", index: false },
      }),
    );
    // The few files at the build's top level (favicon, the service-worker remover): only their own
    // paths reach the static middleware, so that a page request costs no file-system lookup.
    const rootFiles = new Set(readdirSync(client, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => `/${entry.name}`));
    const serveRootFile = express.static(client, { maxAge: "1h", index: false });
    app.use(base || "/", (req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()));
  }

  // The shared page cache (app/server/page-cache.server.ts, docs/decisions/0014-shared-page-cache.md):
  // a GET without a session or any other personal cookie is answered from memory when its page was
  // stored (a page every anonymous visitor gets the same); otherwise it may store what it renders.
  // Not in development, where the code changes under it.
  // Keyed on the language too (app/server/i18n.server.ts): the chosen one's cookie, and what
  // Accept-Language picks.
  const pageCache = dev ? undefined : createSharedPageCache({ keyedCookies: sharedPageCookies(), languageOf: negotiatedLanguage });
  app.use((req, res, next) => {
    const key = pageCache?.keyOf({
      method: req.method,
      url: req.originalUrl,
      host: req.headers.host,
      cookie: req.headers.cookie,
      acceptLanguage: req.headers["accept-language"],
    });
    if (!pageCache || key === undefined) return next();
    const nonce = res.locals.cspNonce as string;
    const page = pageCache.get(key);
    const policy = res.getHeader("Content-Security-Policy");
    const withHashes = page && typeof policy === "string" ? policyWithHashes(policy, nonce, page) : undefined;
    if (!page || !withHashes) {
      const slot = pageCache.slot(key, nonce);
      res.locals.sharedPage = slot;
      // Stored only by the headers that went out: the session middleware (or any other) may add a
      // Set-Cookie after the page was rendered.
      res.on("finish", () => slot.finish(res.statusCode, res.getHeaderNames()));
      return next();
    }
    for (const [name, value] of page.headers) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", withHashes);
    res.vary("Accept-Encoding");
    res.vary("Accept-Language");
    // Without an Accept-Encoding header the answer is the plain HTML, as the compression middleware would send.
    const gzip = acceptsGzip(req.headers["accept-encoding"]);
    if (gzip) res.setHeader("Content-Encoding", "gzip");
    const body = gzip ? page.gzip : page.html;
    res.setHeader("Content-Length", body.length);
    res.status(200).end(body);
  });

  // Under a BASE_PATH, a path outside it is no page of ours: 404 with the small error page (React
  // Router, whose basename it misses, runs none of the app's middleware for it and cannot render it).
  if (base) {
    app.use((req, res, next) => {
      const p = req.path.toLowerCase();
      if (p === base.toLowerCase() || p.startsWith(`${base.toLowerCase()}/`)) return next();
      res.status(404);
      void sendErrorPage(req, res, (m) => m.notFound);
    });
  }

  // The request context (app/server/context.ts) reaches middleware, loaders and actions through
  // getLoadContext, with this bundle's own context key.
  app.all(
    "/{*path}",
    createRequestHandler({
      build: build ?? loadBuild,
      mode: dev ? "development" : "production",
      getLoadContext: (req, res) => {
        const context = new (options.routerContextProvider ?? RouterContextProvider)();
        context.set(requestContext, {
          nonce: res.locals.cspNonce as string,
          requestId: String(req.id),
          log: req.log,
          // Read when an action asks (Express parses X-Forwarded-For by TRUST_PROXY for it), never for a page view.
          get clientIp() {
            return req.ip ?? "";
          },
          sessions,
          attemptLimits,
          draining: options.draining,
          readQrPhoto: options.readQrPhoto,
          sharedPage: res.locals.sharedPage as PageCacheSlot | undefined,
        });
        return context;
      },
    }),
  );

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    const clientError = typeof status === "number" && status >= 400 && status < 500;
    // A request we cannot read (a path escape that is not UTF-8, say) is the client's, not ours.
    if (clientError) req.log.warn({ err: error }, "request refused");
    else req.log.error({ err: error }, "request failed");
    if (res.headersSent) return res.end();
    res.status(clientError ? status : 500);
    void sendErrorPage(req, res, (m) => (clientError ? m.requestUnreadable : m.serverError));
  });

  return app;
}

/**
 * The level of a request's access log line: error for a failure (an exception, or a 5xx), warn for
 * a 4xx and for a 503 that says when to try again (Retry-After: the server is busy, or draining, by
 * design, not failing; docs/operating.md "What the alerts mean"), else info.
 */
export function accessLogLevel(status: number, retryAfter: boolean, failed: boolean): "error" | "warn" | "info" {
  if (failed) return "error";
  if (status === 503 && retryAfter) return "warn";
  return status >= 500 ? "error" : status >= 400 ? "warn" : "info";
}

/** How long one round of /readyz's checks answers every call, ms. */
const readinessIntervalMs = 1_000;

/**
 * The route paths (as `routePathOf` spells them) that React Router answers without a document: the
 * resource routes (a route module without a component) and the lazy route discovery's manifest.
 */
function nonPageRoutes(build: ServerBuild): Set<string> {
  const resources = routePaths(build.routes, (route) => route.module.default === undefined);
  const paths = new Set([...resources].map((resource) => routePathOf(resource, "")));
  if (build.routeDiscovery.mode === "lazy") paths.add(routePathOf(build.routeDiscovery.manifestPath, ""));
  return paths;
}

/** The route the path of the request `res` answers names (`routePathOf`, set once per request by createApp's per-response middleware). */
function routeOf(res: Response): string {
  return res.locals.routePath as string;
}

/** The methods React Router serves (any other is answered before it: OPTIONS 204, else 405). */
const routerMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

/** The methods whose requests run a route's action (React Router), and so must carry a form. */
const bodyMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** True when `url` answers 2xx within 2 s. */
async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * The error pages in the request's language (docs/architecture/behaviour.md §4 "Language";
 * app/error-page.ts): the root's and the main layout's error boundaries, rendered to HTML as the
 * server sends them, take their words from the error when it carries them (an error thrown by
 * middleware, before the root's loader answered), else from the root's data, else the English
 * catalogue's, byte for byte; and the language of the server's own error pages (server/app.ts), known
 * only from the headers. Spanish through the real negotiation with both languages offered.
 */
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { createCookie, createRoutesStub, RouterContextProvider, UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import type { ErrorPageData } from "../../app/error-page";
import { catalogues } from "../../app/messages/catalogues";
import { ErrorBoundary as RootErrorBoundary } from "../../app/root";
import { ErrorBoundary as MainErrorBoundary } from "../../app/routes/main";
import { errorPageData, errorPageText } from "../../app/server/error-page.server";
import { createLanguageNegotiation, headersLanguage } from "../../app/server/i18n.server";

const es = catalogues.es;
const en = catalogues.en;

/**
 * Renders `Boundary` as the boundary of the route "root" for `error`, with `rootData` as the root
 * loader's data (undefined: the root's loader did not answer).
 */
function renderBoundary(Boundary: ComponentType<never>, error: unknown, rootData?: unknown): string {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/mytests",
      Component: () => null,
      ErrorBoundary: Boundary as ComponentType,
      loader: () => rootData ?? null,
      children: [{ id: "routes/main", index: true, Component: () => null }],
    },
  ]);
  return renderToString(
    createElement(Stub, {
      initialEntries: ["/mytests"],
      hydrationData: { loaderData: rootData === undefined ? {} : { root: rootData }, errors: { root: error } },
    }),
  );
}

/** The root loader's data as far as the error pages read it, with the error words of `m`. */
const rootDataIn = (m: typeof en) => ({ text: { errorPage: errorPageText(m) } });

/** The error data of a route error thrown in a request whose browser asks for `acceptLanguage`, offering English and Spanish. */
async function carriedFor(acceptLanguage: string): Promise<ErrorPageData> {
  const context = new RouterContextProvider();
  const request = new Request("http://app.test/mytests", { headers: { "accept-language": acceptLanguage } });
  let carried: ErrorPageData | undefined;
  await createLanguageNegotiation(["en", "es"], () => createCookie("sw_lang")).middleware({ request, context, params: {}, unstable_pattern: "/mytests" } as never, async () => {
    carried = errorPageData(context);
    return new Response("");
  });
  return carried!;
}

/** The text of `html` with its tags removed. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ").trim();

describe("the root's error page", () => {
  it("speaks Spanish with the root's data in Spanish: the upstream's 503, a 404, our own failure, the way back", () => {
    const data = rootDataIn(es);
    expect(textOf(renderBoundary(RootErrorBoundary, new ErrorResponse(503, "Service Unavailable", null), data))).toBe(`${es.upstreamUnavailable} ${es.goToStartPage}`);
    expect(textOf(renderBoundary(RootErrorBoundary, new ErrorResponse(404, "Not Found", null), data))).toBe(`${es.notFound} ${es.goToStartPage}`);
    expect(textOf(renderBoundary(RootErrorBoundary, new Error("Unexpected Server Error"), data))).toBe(`${es.serverError} ${es.goToStartPage}`);
  });

  it("speaks the language the error carries when the root's loader did not answer (the session store down)", async () => {
    const carried = await carriedFor("es-MX,es;q=0.9");
    expect(carried.errorPage.language).toBe("es");
    const html = renderBoundary(RootErrorBoundary, new ErrorResponse(503, "Service Unavailable", carried));
    expect(textOf(html)).toBe("El servicio no respondió. Inténtelo de nuevo en un minuto. Ir a la página de inicio");
    // The error's words win over the root's data's.
    expect(textOf(renderBoundary(RootErrorBoundary, new ErrorResponse(503, "", carried), rootDataIn(en)))).toContain(es.upstreamUnavailable);
  });

  it("stays the product's English, byte for byte: with English data, with English carried words, and with no words at all", async () => {
    const english = `<section class="card narrow"><h1>The service did not answer. Please try again in a minute.</h1><p><a href="/" data-discover="true">Go to the start page</a></p></section>`;
    const error = new ErrorResponse(502, "Bad Gateway", null);
    expect(renderBoundary(RootErrorBoundary, error, rootDataIn(en))).toBe(english);
    expect(renderBoundary(RootErrorBoundary, new ErrorResponse(502, "Bad Gateway", await carriedFor("en-US")))).toBe(english);
    expect(renderBoundary(RootErrorBoundary, error)).toBe(english);
    expect(textOf(renderBoundary(RootErrorBoundary, new ErrorResponse(404, "Not Found", null)))).toBe("Sorry, that page doesn't exist. Go to the start page");
  });
});

describe("a main screen's error page", () => {
  it("speaks Spanish: the heading, the reason and Try again", async () => {
    const html = renderBoundary(MainErrorBoundary, new ErrorResponse(503, "Service Unavailable", null), rootDataIn(es));
    expect(textOf(html)).toBe(`${es.loadFailed} ${es.upstreamUnavailable} ${es.tryAgainLink}`);
    expect(textOf(renderBoundary(MainErrorBoundary, new ErrorResponse(404, "Not Found", await carriedFor("es"))))).toBe(es.notFound);
  });

  it("stays the product's English without Spanish anywhere", () => {
    expect(textOf(renderBoundary(MainErrorBoundary, new Error("x"), rootDataIn(en)))).toBe(
      "This page could not be loaded Something went wrong on our side. Please try again in a minute. Try again",
    );
    expect(textOf(renderBoundary(MainErrorBoundary, new Error("x")))).toBe(`${en.loadFailed} ${en.serverError} ${en.tryAgainLink}`);
  });
});

describe("the language of the server's own error pages", () => {
  const cookie = () => createCookie("sw_lang");
  const offered = ["en", "es"] as const;

  it("is the explicit choice, else Accept-Language, else English; never a language not offered", async () => {
    const chosenSpanish = await cookie().serialize("es");
    expect(await headersLanguage(chosenSpanish, "en-US", offered, cookie)).toBe("es");
    expect(await headersLanguage(await cookie().serialize("en"), "es-MX", offered, cookie)).toBe("en");
    expect(await headersLanguage(undefined, "es-MX,es;q=0.9", offered, cookie)).toBe("es");
    expect(await headersLanguage("other=1", undefined, offered, cookie)).toBe("en");
    expect(await headersLanguage(await cookie().serialize("fr"), "es", offered, cookie)).toBe("es");
    // As the app offers languages now: English whatever is asked.
    expect(await headersLanguage(chosenSpanish, "es", ["en"], cookie)).toBe("en");
  });
});

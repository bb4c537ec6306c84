/**
 * The document shell: head, header with the logo, pending state, CSP-nonced scripts, and the
 * error boundary (docs/product/screens.md §2 unknown paths; friendly 5xx page without a stack trace).
 */
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { type ReactNode, useEffect } from "react";
import type { Route } from "./+types/root";
import { CookieBanner } from "./components/CookieBanner";
import type { ErrorPageData } from "./error-page";
import { Logo } from "./components/Logo";
import * as messages from "./messages";
import { useNonce } from "./nonce";
import { contentId, useFocusAfterNavigation } from "./hooks/useFocusAfterNavigation";
import { getSessionUser } from "./server/auth.server";
import { basePathRedirectMiddleware } from "./server/basepath.server";
import { retryAfterMiddleware } from "./server/retry-after.server";
import { languageMiddleware, languageOf, messagesOf } from "./server/i18n.server";
import { defaultLanguage, languageNames, offeredLanguages, type LanguageSwitchHandle } from "./i18n";
import { sessionMiddleware } from "./server/session.server";
import { consentAnswer } from "./server/preferences.server";
import { browserTimeZone } from "./server/timezone.server";
import { errorPageText } from "./server/error-page.server";
import "./app.css";

// retryAfterMiddleware first: it sees every answer, including the other middleware's; then the
// language, so that every answer, a redirect of the others included, says its language.
export const middleware: Route.MiddlewareFunction[] = [retryAfterMiddleware, languageMiddleware, basePathRedirectMiddleware, sessionMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  const consentAnswered = (await consentAnswer(request)) !== null;
  return {
    /** The frame's words in the page's language (docs/architecture/behaviour.md §4 "Language"). */
    text: {
      description: m.appDescription,
      skipToContent: m.skipToContent,
      home: m.homeLinkLabel,
      logout: m.logoutButton,
      checkingAccount: m.checkingAccount,
      // On every page: any page, and any later navigation from it, may end on an error page, whose
      // error carries no words of its own (app/error-page.ts).
      errorPage: errorPageText(m),
      // The Confirm/Cancel step of several screens (app/components/ConfirmStep.tsx).
      confirmStep: { confirm: m.confirmButton, cancel: m.cancelButton },
      // Only while it is shown: a page carries the words it shows, no others.
      cookieBanner: consentAnswered ? null : { label: m.cookieConsentLabel, text: m.cookieConsentText, accept: m.acceptButton, decline: m.declineButton },
    },
    signedIn: Boolean(getSessionUser(context)),
    consentAnswered,
    browserTimeZone: (await browserTimeZone(request)) ?? "",
    /** The page's language (app/server/i18n.server.ts). */
    language: languageOf(context),
    /**
     * The language switch (app/components/LanguageSwitch.tsx): its name in the page's language and
     * each offered language in its own; null, and no switch shown, while one language is offered (app/i18n.ts).
     */
    languageSwitch:
      offeredLanguages.length > 1
        ? { label: m.languageTitle, choices: offeredLanguages.map((code) => ({ code, name: languageNames[code] })) }
        : null,
  };
}

/**
 * Runs before the app: sends the browser's time zone to the server (dates are shown in the user's
 * zone, docs/architecture/behaviour.md §4) and removes any service worker an earlier version left
 * (docs/product/screens.md §2). The zone is posted to /timezone, which answers with the `tz` cookie, only
 * when it differs from the one the server knew (the script's `data-tz`; absent on a page without
 * the root's data, which posts nothing).
 */
const bootScript = `(function(){try{var s=document.currentScript,k=s&&s.getAttribute("data-tz"),z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&k!==null&&k!==z&&window.fetch){fetch("${import.meta.env.BASE_URL}timezone",{method:"POST",body:new URLSearchParams({zone:z}),credentials:"same-origin",keepalive:true}).catch(function(){})}}catch(e){}if("serviceWorker" in navigator){navigator.serviceWorker.getRegistrations().then(function(r){r.forEach(function(x){x.unregister()})}).catch(function(){})}})();`;

export const links: Route.LinksFunction = () => [{ rel: "icon", href: `${import.meta.env.BASE_URL}favicon.svg`, type: "image/svg+xml" }];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: messages.productName },
  ...(loaderData ? [{ name: "description", content: loaderData.text.description }] : []),
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  // Without the root's data (an error thrown before its loader answered), the language the error carries.
  const failed = (useRouteError() as { data?: Partial<ErrorPageData> } | undefined)?.data?.errorPage;
  return (
    <html lang={data?.language ?? failed?.language ?? defaultLanguage}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <Meta />
        <Links />
        <script nonce={nonce} data-tz={data?.browserTimeZone} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: bootScript }} />
      </head>
      <body>
        {/* In a block of its own, and aimed at a div: text browsers such as w3m know neither <header>
            nor <main>, so they would run the link into the logo and not find a target on <main>. */}
        {/* Its words come with the root's data: a page whose root loader failed has no skip link. */}
        {data ? (
          <div>
            <a className="skip-link" href={`#${contentId}`}>
              {data.text.skipToContent}
            </a>
          </div>
        ) : null}
        {/* Inline at the top until answered: it never covers what the user is working on. */}
        {data?.text.cookieBanner ? <CookieBanner text={data.text.cookieBanner} /> : null}
        <header className="app-header">
          <Link to="/" className="home-link" aria-label={data?.text.home ?? messages.productName}>
            <Logo />
          </Link>
          {data?.signedIn ? (
            <Form method="post" action="/logout" className="header-logout">
              <button type="submit" className="button-link">
                {data.text.logout}
              </button>
            </Form>
          ) : (
            <LanguageSwitch languageSwitch={data?.languageSwitch} language={data?.language} />
          )}
        </header>
        <PendingBar checking={data?.text.checkingAccount ?? messages.checkingAccount} />
        <main>
          <div id={contentId}>{children}</div>
        </main>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * The language switch (docs/architecture/behaviour.md §4 "Language") in the header of the pages whose
 * leaf route asks for it (`handle.languageSwitch`: Sign In, Create Account): one button for each
 * other offered language, in its own name, in a plain form posting to /language with the page to
 * come back to, so it works without JavaScript. In the root, whose code every page loads already,
 * rather than in a file of its own that Sign In would load too. None while one language is offered.
 * Exported for tests/unit/language-card.test.ts.
 */
export function LanguageSwitch({ languageSwitch, language }: { languageSwitch?: { label: string; choices: { code: string; name: string }[] } | null; language?: string }) {
  const location = useLocation();
  const wanted = useMatches().at(-1)?.handle as Partial<LanguageSwitchHandle> | undefined;
  if (!languageSwitch || !wanted?.languageSwitch) return null;
  return (
    <Form method="post" action="/language" className="language-switch" aria-label={languageSwitch.label}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {languageSwitch.choices
        .filter((choice) => choice.code !== language)
        .map((choice) => (
          <button key={choice.code} type="submit" name="language" value={choice.code} lang={choice.code} className="button-link">
            {choice.name}
          </button>
        ))}
    </Form>
  );
}

/** With JavaScript: a progress line while a navigation loads, and the product's gate text (`checking`, in the page's language). */
function PendingBar({ checking: checkingText }: { checking: string }) {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  const checking = navigation.location?.pathname.endsWith("/checkaccountstatus");
  return (
    <div className="navigation-pending" role="status">
      <span className="pending-bar" />
      {checking ? <p className="pending-text">{checkingText}</p> : null}
    </div>
  );
}

export default function App() {
  useFocusAfterNavigation();
  // html[data-hydrated] once React has hydrated the page (App's effect runs after every route
  // component's): from then on JavaScript keeps controls up to date (a Confirm New Password enabled
  // only after a current one), and the end-to-end tests judge controls only then.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // In the request's language: the words the error carries, else the root's data's, else (an error
  // before the language was known) the English catalogue's (app/error-page.ts).
  const root = useRouteLoaderData<typeof loader>("root");
  const text = (error as { data?: Partial<ErrorPageData> } | undefined)?.data?.errorPage?.text ?? root?.text.errorPage;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const upstreamDown = isRouteErrorResponse(error) && (error.status === 502 || error.status === 503);
  const unreadable = isRouteErrorResponse(error) && error.status === 400;
  return (
    <section className="card narrow">
      <h1>
        {notFound
          ? (text?.notFound ?? messages.notFound)
          : upstreamDown
            ? (text?.upstreamUnavailable ?? messages.upstreamUnavailable)
            : unreadable
              ? (text?.requestUnreadable ?? messages.requestUnreadable)
              : (text?.serverError ?? messages.serverError)}
      </h1>
      <p>
        <Link to="/">{text?.goToStart ?? messages.goToStartPage}</Link>
      </p>
    </section>
  );
}

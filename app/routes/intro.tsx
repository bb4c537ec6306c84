// app/routes/intro.tsx: docs/product/screens.md §2 "/": the intro screen with the logo, one sentence on what the app
// does, and the two ways in (Sign In, Create Account) a web visitor needs. A signed-in user goes on to the gate instead.
import { Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/intro";
import { Logo } from "~/components/Logo";
import * as messages from "~/messages";
import { getSessionUser } from "~/server/auth.server";
import { messagesOf } from "~/server/i18n.server";
import type { SharedPageHandle } from "~/server/page-cache.server";

export const meta = () => [{ title: messages.productName }];

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export async function loader({ context }: Route.LoaderArgs) {
  if (getSessionUser(context)) return redirect("/checkaccountstatus");
  const m = messagesOf(context);
  return { text: { tagline: m.introTagline, getStarted: m.getStartedLabel, signIn: m.signInTitle, createAccount: m.createAccountLink } };
}

export default function Intro() {
  const { text } = useLoaderData<typeof loader>();
  return (
    <section className="intro">
      <h1 className="visually-hidden">{messages.productName}</h1>
      <Logo size="large" />
      <p className="intro-tagline">{text.tagline}</p>
      <nav className="intro-actions" aria-label={text.getStarted}>
        <Link className="button" to="/login">
          {text.signIn}
        </Link>{" "}
        <Link className="button secondary" to="/registration">
          {text.createAccount}
        </Link>
      </nav>
    </section>
  );
}

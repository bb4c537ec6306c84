// app/routes/intro.tsx: docs/product/screens.md §2 "/": the intro screen with the logo, one sentence on what the app
// does, and the two ways in (Sign In, Create Account) a web visitor needs. A signed-in user goes on to the gate instead.
import { Link, redirect } from "react-router";
import type { Route } from "./+types/intro";
import { Logo } from "~/components/Logo";
import * as messages from "~/messages";
import { getSessionUser } from "~/server/auth.server";
import type { SharedPageHandle } from "~/server/page-cache.server";

export const meta = () => [{ title: "SafeWindow" }];

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export async function loader({ context }: Route.LoaderArgs) {
  if (getSessionUser(context)) return redirect("/checkaccountstatus");
  return null;
}

export default function Intro() {
  return (
    <section className="intro">
      <h1 className="visually-hidden">SafeWindow</h1>
      <Logo size="large" />
      <p className="intro-tagline">{messages.introTagline}</p>
      <nav className="intro-actions" aria-label="Get started">
        <Link className="button" to="/login">
          Sign In
        </Link>{" "}
        <Link className="button secondary" to="/registration">
          Create Account
        </Link>
      </nav>
    </section>
  );
}

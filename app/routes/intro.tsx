// app/routes/intro.tsx: SPEC §2 "/": the intro screen with the logo
import { Link } from "react-router";
import { Logo } from "~/components/Logo";

export const meta = () => [{ title: "SafeWindow" }];

export default function Intro() {
  return (
    <section className="intro">
      <h1 className="visually-hidden">SafeWindow</h1>
      <Logo size="large" />
      <nav className="intro-actions" aria-label="Get started">
        <Link className="button" to="/login">
          Sign In
        </Link>
        <Link className="button secondary" to="/registration">
          Create Account
        </Link>
      </nav>
    </section>
  );
}

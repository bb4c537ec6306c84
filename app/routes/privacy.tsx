// app/routes/privacy.tsx: the Privacy Policy that registration asks the user to accept (docs/product.md §2 /registration)
import { Link } from "react-router";
import type { SharedPageHandle } from "~/server/page-cache.server";

export const meta = () => [{ title: "Privacy Policy · SafeWindow" }];

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export default function Privacy() {
  return (
    <article className="card prose">
      <h1>Privacy Policy</h1>
      <p>We keep only what the service needs, and we do not sell it.</p>
      <ul>
        <li>Your email address and a hash of your password, to sign you in. We never store your password itself.</li>
        <li>Your name, date of birth and postal code, to match your test results to you.</li>
        <li>The test result PDFs you upload and what we read from them, to compute your safe window.</li>
        <li>A session cookie while you are signed in, and a cookie that remembers your email address on this device.</li>
      </ul>
      <p>Your date of birth is never shown to other people. Only people whose follow request you confirmed see your safe window.</p>
      <p>
        <Link to="/registration">Back to Create Account</Link>
      </p>
    </article>
  );
}

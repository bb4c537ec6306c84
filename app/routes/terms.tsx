// app/routes/terms.tsx: the Terms of Service that registration asks the user to accept (docs/product/screens.md §2 /registration)
import { Link } from "react-router";
import type { SharedPageHandle } from "~/server/page-cache.server";

export const meta = () => [{ title: "Terms of Service · SafeWindow" }];

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export default function Terms() {
  return (
    <article className="card prose">
      <h1>Terms of Service</h1>
      <p>SafeWindow shows, for a limited time, that you had a recent negative COVID-19 test. By creating an account you agree that:</p>
      <ul>
        <li>You are at least 18 years old and the details in your profile are your own and correct.</li>
        <li>You upload only the original PDF your testing lab gave you. Faxed, saved, printed or edited files are not accepted.</li>
        <li>A safe window is information about a past test, not a medical diagnosis or a guarantee that you are not infectious.</li>
        <li>The people you allow to follow you see your name and your safe window, never your date of birth.</li>
        <li>
          You can stop using SafeWindow at any time. You can download your data, and delete your account with everything in it, yourself in My Settings; the Privacy Policy says what is
          deleted and when backups forget it.
        </li>
      </ul>
      <p>
        <Link to="/registration">Back to Create Account</Link>
      </p>
    </article>
  );
}

// app/routes/privacy.tsx: the Privacy Policy that registration asks the user to accept (docs/product/screens.md §2 /registration)
import { Link } from "react-router";
import type { SharedPageHandle } from "~/server/page-cache.server";

export const meta = () => [{ title: "Privacy Policy · SafeWindow" }];

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
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
        <li>
          When you add a result by link, the result we fetch from your testing company's site and the site's name. The link itself is used once for that fetch and not kept.
        </li>
        <li>A session cookie while you are signed in, and a cookie that remembers your email address on this device.</li>
        <li>
          When a venue enters a check-in code you showed it: the venue, the time, what it saw (your name and whether your safe window was open), whether you were checked in, and
          your rating. Your position, when you search for locations near you, is used for that search and not kept.
        </li>
      </ul>
      <p>
        Your date of birth is never shown to other people. Only people whose follow request you confirmed see your safe window, and a venue sees it only through a check-in code
        you chose to show, which works once, for 2 minutes.
      </p>
      <h2>Your data is yours</h2>
      <ul>
        <li>
          <strong>Download my data</strong> in My Settings gives you a zip file with your profile, every test result with its image and the original PDF, your disputes with our
          responses, the people you follow and who follow you, and your visits to venues.
        </li>
        <li>
          <strong>Delete my account</strong> in My Settings, confirmed with your password, deletes at once your account, your profile, your test results with their images and PDFs,
          your disputes, your follow relations (the people on the other side no longer see you) and your visits, the emails we sent you that we still keep, and every sign-in
          on every device. We send a confirmation to your email address; our copy of it is deleted once it is sent. It cannot be undone.
        </li>
        <li>
          Backups of this service made before you deleted your account still hold what was in it then: your account, profile, test results with their images and PDFs, disputes,
          follow relations, visits and the emails we kept. Backups are not changed; each is deleted within 30 days of being made, so 30 days after you delete your account no copy
          is left.
        </li>
      </ul>
      <p>
        <Link to="/registration">Back to Create Account</Link>
      </p>
    </article>
  );
}

// app/routes/testing-philosophy.tsx: the testing philosophy page linked from /welcome and
// /safewindow (docs/product/screens.md §2): what a safe window is and how it is counted (docs/product/labs.md §10.7)
import { Link } from "react-router";
import type { SharedPageHandle } from "~/server/page-cache.server";

export const meta = () => [{ title: "How we count safe windows · SafeWindow" }];

/** The same page for every anonymous visitor: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export default function TestingPhilosophy() {
  return (
    <article className="card prose">
      <h1>How we count safe windows</h1>
      <p>
        A safe window says for how long a recent negative COVID-19 test still counts. It is not a diagnosis: a test shows how
        things were when your sample was taken, and that tells less and less as time goes by. So every window closes.
      </p>
      <h2>Two windows: strong and weak</h2>
      <p>Each negative result opens two windows, counted from the moment your specimen was collected (not from when the lab reported it):</p>
      <table>
        <caption>Window lengths by test method</caption>
        <thead>
          <tr>
            <th scope="col">Test method</th>
            <th scope="col">Strong window</th>
            <th scope="col">Weak window</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Molecular (NAAT: PCR, RT-PCR, isothermal such as ID NOW)</th>
            <td>48 hours</td>
            <td>72 hours</td>
          </tr>
          <tr>
            <th scope="row">Rapid antigen</th>
            <td>24 hours</td>
            <td>48 hours</td>
          </tr>
        </tbody>
      </table>
      <p>
        The weak window follows the EU Digital COVID Certificate template (72 hours for NAAT, 48 for antigen); the strong window follows
        the strictest widely used national rule (48 and 24 hours). A window is open until the exact minute it ends.
      </p>
      <h2>What counts</h2>
      <ul>
        <li>Only a negative result opens a window. A positive result closes any window you had. Inconclusive or void results open none.</li>
        <li>Your window is that of your most recent valid result, by the time the sample was taken.</li>
        <li>Only the original PDF from the testing lab counts: not a scan, fax, photo, printout, or a file saved or edited after the lab issued it.</li>
        <li>Your first name, last name and date of birth must match the report exactly. If they differ, for example by a typo, you can dispute the result.</li>
      </ul>
      <p>
        <Link to="/safewindow">Back to My Safe Window</Link>
      </p>
    </article>
  );
}

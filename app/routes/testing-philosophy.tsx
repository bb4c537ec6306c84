// app/routes/testing-philosophy.tsx: the testing philosophy page linked from /welcome and
// /safewindow (docs/product/screens.md §2): what a safe window is and how it is counted (docs/product/labs.md §10.7)
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/testing-philosophy";
import { windowHours } from "../../contracts/rules.ts";
import { messagesOf } from "~/server/i18n.server";
import type { SharedPageHandle } from "~/server/page-cache.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The same page for every anonymous visitor of one language: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export function loader({ context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  // The hours are the table the windows are computed from (contracts/rules.ts, docs/product/labs.md §10.7),
  // worded here: loader data carries strings, not the catalogue's functions.
  const lengths = (method: keyof typeof windowHours) => ({
    strong: m.windowLengthInHours(windowHours[method].strongHours),
    weak: m.windowLengthInHours(windowHours[method].weakHours),
  });
  return { text: { ...m.testingPhilosophyPage, sources: m.testingPhilosophyPage.sources(windowHours), molecularHours: lengths("NAAT"), antigenHours: lengths("antigen") } };
}

export default function TestingPhilosophy() {
  const { text } = useLoaderData<typeof loader>();
  return (
    <article className="card prose">
      <h1>{text.title}</h1>
      <p>{text.intro}</p>
      <h2>{text.windowsTitle}</h2>
      <p>{text.windowsIntro}</p>
      <table>
        <caption>{text.tableCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{text.methodHeader}</th>
            <th scope="col">{text.strongHeader}</th>
            <th scope="col">{text.weakHeader}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{text.molecular}</th>
            <td>{text.molecularHours.strong}</td>
            <td>{text.molecularHours.weak}</td>
          </tr>
          <tr>
            <th scope="row">{text.antigen}</th>
            <td>{text.antigenHours.strong}</td>
            <td>{text.antigenHours.weak}</td>
          </tr>
        </tbody>
      </table>
      <p>{text.sources}</p>
      <h2>{text.countsTitle}</h2>
      <ul>
        <li>{text.negativeOnly}</li>
        <li>{text.mostRecent}</li>
        <li>{text.originalOnly}</li>
        <li>{text.namesMatch}</li>
      </ul>
      <p>
        <Link to="/safewindow">{text.back}</Link>
      </p>
    </article>
  );
}

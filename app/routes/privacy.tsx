// app/routes/privacy.tsx: the Privacy Policy that registration asks the user to accept (docs/product/screens.md §2 /registration)
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/privacy";
import { fillPlaceholders } from "~/components/Placeholders";
import { longestWindowHours } from "../../contracts/rules.ts";
import { checkinCodeMinutes } from "../../contracts/consumer.ts";
import { messagesOf } from "~/server/i18n.server";
import type { SharedPageHandle } from "~/server/page-cache.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The same page for every anonymous visitor of one language: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export function loader({ context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  const text = { ...m.privacyPage, passLives: m.privacyPage.passLives(longestWindowHours), whoSees: m.privacyPage.whoSees(checkinCodeMinutes) };
  // The buttons' names as My Settings shows them, emphasized inside the sentences that explain them.
  return { text: { ...text, downloadButton: m.downloadMyData, deleteButton: m.deleteAccountButton } };
}

export default function Privacy() {
  const { text } = useLoaderData<typeof loader>();
  return (
    <article className="card prose">
      <h1>{text.title}</h1>
      <p>{text.intro}</p>
      <ul>
        <li>{text.email}</li>
        <li>{text.profile}</li>
        <li>{text.results}</li>
        <li>{text.resultLinks}</li>
        <li>{text.cookies}</li>
        <li>{text.checkIns}</li>
      </ul>
      <p>{text.whoSees}</p>
      <h2>{text.passTitle}</h2>
      <ul>
        <li>{text.passShows}</li>
        <li>{text.passLives}</li>
        <li>{text.passScreenshot}</li>
        <li>{text.passChecks}</li>
      </ul>
      <h2>{text.yoursTitle}</h2>
      <ul>
        <li>{fillPlaceholders(text.download, { button: <strong>{text.downloadButton}</strong> })}</li>
        <li>{fillPlaceholders(text.deletion, { button: <strong>{text.deleteButton}</strong> })}</li>
        <li>{text.backups}</li>
      </ul>
      <p>
        <Link to="/registration">{text.back}</Link>
      </p>
    </article>
  );
}

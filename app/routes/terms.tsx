// app/routes/terms.tsx: the Terms of Service that registration asks the user to accept (docs/product/screens.md §2 /registration)
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/terms";
import { messagesOf } from "~/server/i18n.server";
import type { SharedPageHandle } from "~/server/page-cache.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The same page for every anonymous visitor of one language: kept in the shared page cache (docs/architecture/request-path.md §7.1). */
export const handle: SharedPageHandle = { sharedPage: true };

export function loader({ context }: Route.LoaderArgs) {
  return { text: messagesOf(context).termsPage };
}

export default function Terms() {
  const { text } = useLoaderData<typeof loader>();
  return (
    <article className="card prose">
      <h1>{text.title}</h1>
      <p>{text.intro}</p>
      <ul>
        <li>{text.adult}</li>
        <li>{text.originalPdf}</li>
        <li>{text.notDiagnosis}</li>
        <li>{text.followers}</li>
        <li>{text.leaving}</li>
      </ul>
      <p>
        <Link to="/registration">{text.back}</Link>
      </p>
    </article>
  );
}

// app/routes/not-found.tsx: docs/product/screens.md §2 catch-all: 'Sorry, that page doesn't exist.' with status 404
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/not-found";
import { messagesOf } from "~/server/i18n.server";

/** The page's words in the request's language (docs/architecture/behaviour.md §4 "Language"). */
function pageText(context: Route.LoaderArgs["context"]) {
  const m = messagesOf(context);
  return { pageTitle: m.notFoundPageTitle, notFound: m.notFound, goToStart: m.goToStartPage };
}

export function loader({ context }: Route.LoaderArgs) {
  return data({ text: pageText(context) }, { status: 404 });
}

// A post to an unknown address: the same page, its words with the action's answer (loaders may not run after a 404 action).
export function action({ context }: Route.ActionArgs) {
  return data({ text: pageText(context) }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export default function NotFound() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const text = loaded?.text ?? acted?.text;
  if (!text) return null;
  return (
    <section className="card narrow">
      <h1>{text.notFound}</h1>
      <p>
        <Link to="/">{text.goToStart}</Link>
      </p>
    </section>
  );
}

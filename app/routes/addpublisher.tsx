// app/routes/addpublisher.tsx: docs/product/screens.md §2 /addpublisher 'Add': the search box ('Name, product ID or
// email', at least 3 non-blank characters, docs/product/data.md §5), results with Add, which becomes a check icon
// after the request. The search is a GET form (?q=), the request a post; both work without JavaScript.
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/addpublisher";
import { FormMessage } from "~/components/Field";
import { peopleSearchRefused } from "~/server/attempts.server";
import { peopleSearchMax, peopleSearchSchema } from "~/forms/search";
import { messagesOf } from "~/server/i18n.server";
import { htmlConstraints } from "~/server/form-constraints.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams.get("q")?.slice(0, peopleSearchMax) ?? "";
  // The search box's HTML constraints, from the schema the query is checked with.
  const m = messagesOf(context);
  const constraint = htmlConstraints(peopleSearchSchema(m)).q;
  const text = {
    title: m.addTitle,
    pageTitle: m.addPageTitle,
    searchLabel: m.searchLabel,
    searchPlaceholder: m.searchPlaceholder,
    search: m.searchButton,
    noResults: m.searchNoResults,
    results: m.searchResultsLabel,
    requested: m.requestedButton,
    add: m.addButton,
  };
  if (!query.trim()) return { query, constraint, problem: undefined, results: null, text };
  const checked = peopleSearchSchema(m).safeParse({ q: query });
  if (!checked.success) {
    const problem = checked.error.issues[0]!.message;
    // Characters that cannot be typed are not shown back.
    return data({ query: problem === m.searchInvalid ? "" : query, constraint, problem, results: null, text }, { status: 400 });
  }
  // Every search sent to the consumer API counts against the account, 30 a minute (docs/security/limits.md "Limits").
  const refused = await peopleSearchRefused(context);
  if (refused) return data({ query, constraint, problem: refused.message, results: null, text }, refused.init);
  const api = consumerApi(context);
  const [found, following] = await Promise.all([api.searchPublishers(query), api.publishers()]);
  const [hits, publishers] = [valueOrThrow(found), valueOrThrow(following)];
  const requested = new Set(publishers.map((p) => p.sF_ConsumerId));
  const results = hits.map((hit) => {
    const fullName = `${hit.firstName} ${hit.lastName}`;
    return { ...hit, requested: requested.has(hit.sF_ConsumerId), labels: { requested: m.requestedToFollow(fullName), add: m.addPersonLabel(fullName) } };
  });
  return { query, constraint, problem: undefined, results, text };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  const id = String(form.get("sfConsumerId") ?? "");
  if (!id) throw data(null, { status: 400 });
  const requested = await consumerApi(context).follow("request", id);
  return requested.ok ? { error: undefined } : data({ error: requested.message }, failureInit(requested));
}

export default function AddPublisher() {
  const { query, constraint, problem, results, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <section>
      <h1>{text.title}</h1>
      <Form method="get" role="search" className="search-form">
        <label htmlFor="search">{text.searchLabel}</label>{" "}
        <input
          id="search"
          type="search"
          name="q"
          defaultValue={query}
          placeholder={text.searchPlaceholder}
          aria-describedby="search-error"
          aria-invalid={problem ? true : undefined}
          maxLength={constraint?.maxLength}
        />{" "}
        <button type="submit" className="button">
          {text.search}
        </button>
      </Form>
      <div id="search-error" className="field-error" aria-live="polite">
        {problem ? <p>{problem}</p> : null}
      </div>
      <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
      {results && results.length === 0 ? <p className="empty">{text.noResults}</p> : null}
      {results && results.length > 0 ? (
        <ul className="people-list" aria-label={text.results}>
          {results.map((hit) => (
            <li key={hit.sF_ConsumerId} className="person-row">
              <span className="person-name">
                {hit.firstName} {hit.lastName} {hit.safeWindowId ? <code className="product-id">{hit.safeWindowId}</code> : null}
              </span>{" "}
              {hit.requested ? (
                <span className="requested" role="img" aria-label={hit.labels.requested}>
                  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="check-icon">
                    <path d="M5 13l4 4 10-10" />
                  </svg>
                  <span aria-hidden="true">{text.requested}</span>
                </span>
              ) : (
                <Form method="post">
                  <input type="hidden" name="sfConsumerId" value={hit.sF_ConsumerId} />
                  <button type="submit" className="button secondary" disabled={navigation.state !== "idle"} aria-label={hit.labels.add}>
                    {text.add}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

// app/routes/addpublisher.tsx: docs/product/screens.md §2 /addpublisher 'Add': the search box ('Name, product ID or
// email', at least 3 non-blank characters, docs/product/data.md §5), results with Add, which becomes a check icon
// after the request. The search is a GET form (?q=), the request a post; both work without JavaScript.
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/addpublisher";
import { FormMessage } from "~/components/Field";
import { peopleSearchMax, peopleSearchSchema } from "~/forms/search";
import * as messages from "~/messages";
import { htmlConstraints } from "~/server/form-constraints.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "Add · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams.get("q")?.slice(0, peopleSearchMax) ?? "";
  // The search box's HTML constraints, from the schema the query is checked with.
  const constraint = htmlConstraints(peopleSearchSchema).q;
  if (!query.trim()) return { query, constraint, problem: undefined, results: null };
  const checked = peopleSearchSchema.safeParse({ q: query });
  if (!checked.success) {
    const problem = checked.error.issues[0]!.message;
    // Characters that cannot be typed are not shown back.
    return data({ query: problem === messages.searchInvalid ? "" : query, constraint, problem, results: null }, { status: 400 });
  }
  const api = consumerApi(context);
  const [found, following] = await Promise.all([api.searchPublishers(query), api.publishers()]);
  const [hits, publishers] = [valueOrThrow(found), valueOrThrow(following)];
  const requested = new Set(publishers.map((p) => p.sF_ConsumerId));
  return { query, constraint, problem: undefined, results: hits.map((hit) => ({ ...hit, requested: requested.has(hit.sF_ConsumerId) })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const id = String(form.get("sfConsumerId") ?? "");
  if (!id) throw data(null, { status: 400 });
  const requested = await consumerApi(context).follow("request", id);
  return requested.ok ? { error: undefined } : data({ error: requested.message }, failureInit(requested));
}

export default function AddPublisher() {
  const { query, constraint, problem, results } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <section>
      <h1>Add</h1>
      <Form method="get" role="search" className="search-form">
        <label htmlFor="search">Search people by name, product ID or email</label>{" "}
        <input
          id="search"
          type="search"
          name="q"
          defaultValue={query}
          placeholder={messages.searchPlaceholder}
          aria-describedby="search-error"
          aria-invalid={problem ? true : undefined}
          maxLength={constraint?.maxLength}
        />{" "}
        <button type="submit" className="button">
          Search
        </button>
      </Form>
      <div id="search-error" className="field-error" aria-live="polite">
        {problem ? <p>{problem}</p> : null}
      </div>
      <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
      {results && results.length === 0 ? <p className="empty">{messages.searchNoResults}</p> : null}
      {results && results.length > 0 ? (
        <ul className="people-list" aria-label="Search results">
          {results.map((hit) => (
            <li key={hit.sF_ConsumerId} className="person-row">
              <span className="person-name">
                {hit.firstName} {hit.lastName} {hit.safeWindowId ? <code className="product-id">{hit.safeWindowId}</code> : null}
              </span>{" "}
              {hit.requested ? (
                <span className="requested" role="img" aria-label={`Requested to follow ${hit.firstName} ${hit.lastName}`}>
                  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="check-icon">
                    <path d="M5 13l4 4 10-10" />
                  </svg>
                  <span aria-hidden="true">Requested</span>
                </span>
              ) : (
                <Form method="post">
                  <input type="hidden" name="sfConsumerId" value={hit.sF_ConsumerId} />
                  <button type="submit" className="button secondary" disabled={navigation.state !== "idle"} aria-label={`Add ${hit.firstName} ${hit.lastName}`}>
                    Add
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

// app/routes/following.tsx: docs/product/screens.md §2 /following: the followed person's card (window, no date of
// birth) with Unfollow, then Confirm or Cancel (?step=unfollow); a pending request can be
// cancelled. §8 follow messages.
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/following";
import { ConfirmStep } from "~/components/ConfirmStep";
import { FormMessage } from "~/components/Field";
import { SafeWindowCard, safeWindowCardText } from "~/components/SafeWindowCard";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { followChange, relationOf } from "~/server/follows.server";
import { timeZoneOf } from "~/server/timezone.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const relation = await relationOf(context, "publishers", url.searchParams.get("id"));
  const timeZone = await timeZoneOf(request, context);
  const m = messagesOf(context);
  const fullName = `${relation.firstName} ${relation.lastName}`;
  const text = {
    title: m.followingTitle,
    pageTitle: m.followingPageTitle,
    card: safeWindowCardText(m, languageOf(context), relation, timeZone),
    requestTo: m.followRequestTo(fullName),
    productId: m.productIdLabel,
    pendingNote: m.followPendingNote,
    cancelRequest: m.cancelRequestButton,
    unfollow: m.unfollowButton,
    unfollowQuestion: m.unfollowQuestion(fullName),
    backToFollowing: m.backToFollowing,
  };
  return { relation, unfollowing: url.searchParams.get("step") === "unfollow", now: Date.now(), timeZone, text };
}

export async function action({ request, context }: Route.ActionArgs) {
  const relation = await relationOf(context, "publishers", new URL(request.url).searchParams.get("id"));
  // The consumer API decides whether the change fits the relation's state (a page may be stale).
  const intent = (await readForm(request, context)).get("intent");
  if (intent === "cancel") return followChange(context, "cancel", relation.sF_ConsumerSubscriptionId, "/people");
  if (intent === "unfollow") return followChange(context, "unfollow", relation.sF_ConsumerSubscriptionId, "/people");
  throw data(null, { status: 400 });
}

export default function Following() {
  const { relation, unfollowing, now, timeZone, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const here = `/following?id=${encodeURIComponent(relation.sF_ConsumerSubscriptionId)}`;
  return (
    <section>
      <h1>{text.title}</h1>
      <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
      {relation.confirmed === 0 ? (
        <>
          <article className="safe-window-card closed" aria-label={text.requestTo}>
            <h2 className="card-name">
              {relation.firstName} {relation.lastName}
            </h2>
            {/* The product ID of a relation is an extension: an upstream that answers as the product rules say leaves it out. */}
            {relation.safeWindowId ? (
              <p className="card-id">
                <span className="label">{text.productId}</span> <code className="product-id">{relation.safeWindowId}</code>
              </p>
            ) : null}
            <p className="window-hidden">{text.pendingNote}</p>
          </article>
          <Form method="post">
            <button type="submit" name="intent" value="cancel" className="button secondary" disabled={busy}>
              {text.cancelRequest}
            </button>
          </Form>
        </>
      ) : (
        <>
          <SafeWindowCard person={relation} own={false} now={now} timeZone={timeZone} text={text.card} />
          {unfollowing ? (
            <ConfirmStep label={text.unfollow} intent="unfollow" cancelTo={here}>
              {text.unfollowQuestion}
            </ConfirmStep>
          ) : (
            <Link className="button secondary" to={`${here}&step=unfollow`}>
              {text.unfollow}
            </Link>
          )}
        </>
      )}
      <p>
        <Link to="/people">{text.backToFollowing}</Link>
      </p>
    </section>
  );
}

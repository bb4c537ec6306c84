// app/routes/following.tsx: docs/product/screens.md §2 /following: the followed person's card (window, no date of
// birth) with Unfollow, then Confirm or Cancel (?step=unfollow); a pending request can be
// cancelled. §8 follow messages.
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/following";
import { ConfirmStep } from "~/components/ConfirmStep";
import { FormMessage } from "~/components/Field";
import { SafeWindowCard } from "~/components/SafeWindowCard";
import * as messages from "~/messages";
import { followChange, relationOf } from "~/server/follows.server";
import { timeZoneOf } from "~/server/timezone.server";

export const meta = () => [{ title: "Following · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const relation = await relationOf(context, "publishers", url.searchParams.get("id"));
  return { relation, unfollowing: url.searchParams.get("step") === "unfollow", now: Date.now(), timeZone: await timeZoneOf(request, context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const relation = await relationOf(context, "publishers", new URL(request.url).searchParams.get("id"));
  // The consumer API decides whether the change fits the relation's state (a page may be stale).
  const intent = (await request.formData()).get("intent");
  if (intent === "cancel") return followChange(context, "cancel", relation.sF_ConsumerSubscriptionId, "/people");
  if (intent === "unfollow") return followChange(context, "unfollow", relation.sF_ConsumerSubscriptionId, "/people");
  throw data(null, { status: 400 });
}

export default function Following() {
  const { relation, unfollowing, now, timeZone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const here = `/following?id=${encodeURIComponent(relation.sF_ConsumerSubscriptionId)}`;
  return (
    <section>
      <h1>Following</h1>
      <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
      {relation.confirmed === 0 ? (
        <>
          <article className="safe-window-card closed" aria-label={`Follow request to ${relation.firstName} ${relation.lastName}`}>
            <h2 className="card-name">
              {relation.firstName} {relation.lastName}
            </h2>
            {/* The product ID of a relation is an extension: an upstream that answers as the product rules say leaves it out. */}
            {relation.safeWindowId ? (
              <p className="card-id">
                <span className="label">Product ID</span> <code className="product-id">{relation.safeWindowId}</code>
              </p>
            ) : null}
            <p className="window-hidden">Your follow request is pending. You will see the safe window once it is confirmed.</p>
          </article>
          <Form method="post">
            <button type="submit" name="intent" value="cancel" className="button secondary" disabled={busy}>
              Cancel Request
            </button>
          </Form>
        </>
      ) : (
        <>
          <SafeWindowCard person={relation} own={false} now={now} timeZone={timeZone} />
          {unfollowing ? (
            <ConfirmStep label="Unfollow" intent="unfollow" cancelTo={here}>
              Stop following {relation.firstName} {relation.lastName}?
            </ConfirmStep>
          ) : (
            <Link className="button secondary" to={`${here}&step=unfollow`}>
              Unfollow
            </Link>
          )}
        </>
      )}
      <p>
        <Link to="/people">Back to Following</Link>
      </p>
    </section>
  );
}

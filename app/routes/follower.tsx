// app/routes/follower.tsx: docs/product/screens.md §2 /follower and "Follow screens, in detail": a follower's card
// (no date of birth); the subscription status fetched on load: 'Pending' or 'Following' as a
// disabled button, else 'Follow Back'; Confirm and Decline for a pending request; Remove with
// Confirm/Cancel (?step=remove). §8 follow messages.
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/follower";
import { ConfirmStep } from "~/components/ConfirmStep";
import { FormMessage } from "~/components/Field";
import { SafeWindowCard } from "~/components/SafeWindowCard";
import * as messages from "~/messages";
import { followChange, relationOf } from "~/server/follows.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "Follower · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const relation = await relationOf(context, "subscribers", url.searchParams.get("id"));
  const status = valueOrThrow(await consumerApi(context).subscriptionStatus(relation.sF_ConsumerId));
  return { relation, status, removing: url.searchParams.get("step") === "remove", now: Date.now(), timeZone: await timeZoneOf(request, context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const id = new URL(request.url).searchParams.get("id");
  const relation = await relationOf(context, "subscribers", id);
  const here = `/follower?id=${encodeURIComponent(relation.sF_ConsumerSubscriptionId)}`;
  const intent = (await request.formData()).get("intent");
  switch (intent) {
    case "followback":
      return followChange(context, "request", relation.sF_ConsumerId, here);
    case "confirm":
      return followChange(context, "confirm", relation.sF_ConsumerSubscriptionId, here);
    case "decline":
      return followChange(context, "decline", relation.sF_ConsumerSubscriptionId, "/people?tab=followers");
    case "remove":
      return followChange(context, "delete", relation.sF_ConsumerSubscriptionId, "/people?tab=followers");
    default:
      throw data(null, { status: 400 });
  }
}

export default function Follower() {
  const { relation, status, removing, now, timeZone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const here = `/follower?id=${encodeURIComponent(relation.sF_ConsumerSubscriptionId)}`;
  return (
    <section>
      <h1>Follower</h1>
      <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
      <SafeWindowCard
        person={relation}
        own={false}
        now={now}
        timeZone={timeZone}
        showWindow={status.subscribed}
        hiddenNote={status.pending ? messages.followerWindowPending(relation.firstName) : messages.followerWindowHidden(relation.firstName)}
      />
      {relation.confirmed === 0 ? (
        <Form method="post" className="button-row" aria-label="Follow request">
          <p className="pending-note">
            {relation.firstName} asked to follow you.
          </p>
          <button type="submit" name="intent" value="confirm" className="button" disabled={busy}>
            Confirm
          </button>{" "}
          <button type="submit" name="intent" value="decline" className="button secondary" disabled={busy}>
            Decline
          </button>
        </Form>
      ) : null}
      <div className="button-row">
        {status.pending || status.subscribed ? (
          <button type="button" className="button" disabled>
            {status.pending ? "Pending" : "Following"}
          </button>
        ) : (
          <Form method="post">
            {/* One primary action per screen: while a request waits, Confirm is it. */}
            <button type="submit" name="intent" value="followback" className={relation.confirmed === 0 ? "button secondary" : "button"} disabled={busy}>
              Follow Back
            </button>
          </Form>
        )}
        {relation.confirmed === 1 && !removing ? (
          <Link className="button secondary" to={`${here}&step=remove`}>
            Remove
          </Link>
        ) : null}
      </div>
      {relation.confirmed === 1 && removing ? (
        <ConfirmStep label="Remove follower" intent="remove" cancelTo={here}>
          Remove {relation.firstName} {relation.lastName}? They will no longer see your safe window.
        </ConfirmStep>
      ) : null}
      <p>
        <Link to="/people?tab=followers">Back to Followers</Link>
      </p>
    </section>
  );
}

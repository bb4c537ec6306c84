// app/routes/follower.tsx: docs/product.md §2 /follower and "Follow screens, in detail": a follower's card
// (no date of birth); the subscription status fetched on load: 'Pending' or 'Following' as a
// disabled button, else 'Follow Back'; Confirm and Decline for a pending request; Remove with
// Confirm/Cancel (?step=remove). §8 follow messages.
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/follower";
import { ConfirmStep } from "~/components/ConfirmStep";
import { FormMessage } from "~/components/Field";
import { SafeWindowCard } from "~/components/SafeWindowCard";
import { messages } from "~/messages";
import { requireUser } from "~/server/auth.server";
import { followChange, relationOf } from "~/server/follows.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";

export const meta = () => [{ title: "Follower · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const url = new URL(request.url);
  const relation = await relationOf(user, "subscribers", url.searchParams.get("id"));
  const status = await consumerApi(user).subscriptionStatus(relation.sF_ConsumerId);
  return { relation, status, removing: url.searchParams.get("step") === "remove", now: Date.now(), timeZone: timeZoneOf(request) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const id = new URL(request.url).searchParams.get("id");
  const relation = await relationOf(user, "subscribers", id);
  const here = `/follower?id=${encodeURIComponent(relation.sF_ConsumerSubscriptionId)}`;
  const intent = (await request.formData()).get("intent");
  switch (intent) {
    case "followback":
      return followChange(user, "request", relation.sF_ConsumerId, here, messages.followRequestFailed);
    case "confirm":
      return followChange(user, "confirm", relation.sF_ConsumerSubscriptionId, here, messages.followConfirmFailed);
    case "decline":
      return followChange(user, "decline", relation.sF_ConsumerSubscriptionId, "/people?tab=followers", messages.followDeclineFailed);
    case "remove":
      return followChange(user, "delete", relation.sF_ConsumerSubscriptionId, "/people?tab=followers", messages.followDeleteFailed);
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
      <SafeWindowCard person={relation} own={false} now={now} timeZone={timeZone} showWindow={status.subscribed} />
      {relation.confirmed === 0 ? (
        <Form method="post" className="button-row" aria-label="Follow request">
          <p className="pending-note">
            {relation.firstName} asked to follow you.
          </p>
          <button type="submit" name="intent" value="confirm" className="button" disabled={busy}>
            Confirm
          </button>
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
            <button type="submit" name="intent" value="followback" className="button" disabled={busy}>
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

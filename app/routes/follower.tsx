// app/routes/follower.tsx: docs/product/screens.md §2 /follower and "Follow screens, in detail": a follower's card
// (no date of birth); the subscription status fetched on load: 'Pending' or 'Following' as a
// disabled button, else 'Follow Back'; Confirm and Decline for a pending request; Remove with
// Confirm/Cancel (?step=remove). §8 follow messages.
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/follower";
import { ConfirmStep } from "~/components/ConfirmStep";
import { FormMessage } from "~/components/Field";
import { SafeWindowCard, safeWindowCardText } from "~/components/SafeWindowCard";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { followChange, relationOf } from "~/server/follows.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";
import { readForm } from "~/server/form.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const relation = await relationOf(context, "subscribers", url.searchParams.get("id"));
  const status = valueOrThrow(await consumerApi(context).subscriptionStatus(relation.sF_ConsumerId));
  const timeZone = await timeZoneOf(request, context);
  const m = messagesOf(context);
  const fullName = `${relation.firstName} ${relation.lastName}`;
  const text = {
    title: m.followerTitle,
    pageTitle: m.followerPageTitle,
    card: safeWindowCardText(m, languageOf(context), relation, timeZone),
    hiddenNote: status.pending ? m.followerWindowPending(relation.firstName) : m.followerWindowHidden(relation.firstName),
    followRequest: m.followRequestLabel,
    askedToFollow: m.askedToFollow(relation.firstName),
    confirm: m.confirmButton,
    decline: m.declineButton,
    pending: m.pendingButton,
    following: m.followingButton,
    followBack: m.followBackButton,
    remove: m.removeButton,
    removeFollower: m.removeFollowerLabel,
    removeQuestion: m.removeFollowerQuestion(fullName),
    backToFollowers: m.backToFollowers,
  };
  return { relation, status, removing: url.searchParams.get("step") === "remove", now: Date.now(), timeZone, text };
}

export async function action({ request, context }: Route.ActionArgs) {
  const id = new URL(request.url).searchParams.get("id");
  const relation = await relationOf(context, "subscribers", id);
  const here = `/follower?id=${encodeURIComponent(relation.sF_ConsumerSubscriptionId)}`;
  const intent = (await readForm(request, context)).get("intent");
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
  const { relation, status, removing, now, timeZone, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const here = `/follower?id=${encodeURIComponent(relation.sF_ConsumerSubscriptionId)}`;
  return (
    <section>
      <h1>{text.title}</h1>
      <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
      <SafeWindowCard
        person={relation}
        own={false}
        now={now}
        timeZone={timeZone}
        showWindow={status.subscribed}
        hiddenNote={text.hiddenNote}
        text={text.card}
      />
      {relation.confirmed === 0 ? (
        <Form method="post" className="button-row" aria-label={text.followRequest}>
          <p className="pending-note">
            {text.askedToFollow}
          </p>
          <button type="submit" name="intent" value="confirm" className="button" disabled={busy}>
            {text.confirm}
          </button>{" "}
          <button type="submit" name="intent" value="decline" className="button secondary" disabled={busy}>
            {text.decline}
          </button>
        </Form>
      ) : null}
      <div className="button-row">
        {status.pending || status.subscribed ? (
          <button type="button" className="button" disabled>
            {status.pending ? text.pending : text.following}
          </button>
        ) : (
          <Form method="post">
            {/* One primary action per screen: while a request waits, Confirm is it. */}
            <button type="submit" name="intent" value="followback" className={relation.confirmed === 0 ? "button secondary" : "button"} disabled={busy}>
              {text.followBack}
            </button>
          </Form>
        )}
        {relation.confirmed === 1 && !removing ? (
          <Link className="button secondary" to={`${here}&step=remove`}>
            {text.remove}
          </Link>
        ) : null}
      </div>
      {relation.confirmed === 1 && removing ? (
        <ConfirmStep label={text.removeFollower} intent="remove" cancelTo={here}>
          {text.removeQuestion}
        </ConfirmStep>
      ) : null}
      <p>
        <Link to="/people?tab=followers">{text.backToFollowers}</Link>
      </p>
    </section>
  );
}

// app/routes/people.tsx: docs/product/screens.md §2 /people: tabs 'Following' and 'Followers' (the pending count in
// brackets), the 'Add' button; each entry opens its card. The tab lives in the URL (?tab=followers).
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/people";
import { windowStrength } from "~/windows";
import { consumerApi, type Subscription } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";
import { TextOnly, TextSeparator } from "~/components/TextOnly";
import * as messages from "~/messages";

export const meta = () => [{ title: "People · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = consumerApi(context);
  const [subscribers, publishers] = await Promise.all([api.subscribers(), api.publishers()]);
  const [followers, following] = [valueOrThrow(subscribers), valueOrThrow(publishers)];
  const tab = new URL(request.url).searchParams.get("tab") === "followers" ? "followers" : "following";
  return { tab, followers, following, pendingCount: followers.filter((s) => s.confirmed === 0).length, now: Date.now() };
}

export default function People() {
  const { tab, followers, following, pendingCount, now } = useLoaderData<typeof loader>();
  const list = tab === "followers" ? followers : following;
  return (
    <section>
      <div className="heading-row">
        <h1>People</h1>
        <Link className="button" to="/addpublisher">
          Add
        </Link>
      </div>
      <nav className="tabs" aria-label="People">
        <Link to="/people" className={tab === "following" ? "tab-link active" : "tab-link"} aria-current={tab === "following" ? "page" : undefined}>
          Following
          {tab === "following" ? <TextOnly> (current)</TextOnly> : null}
        </Link>
        <TextSeparator />
        <Link
          to="/people?tab=followers"
          className={tab === "followers" ? "tab-link active" : "tab-link"}
          aria-current={tab === "followers" ? "page" : undefined}
        >
          Followers ({pendingCount})
          {tab === "followers" ? <TextOnly> (current)</TextOnly> : null}
        </Link>
      </nav>
      {/* The Followers count (docs/product/screens.md §2) is of requests waiting, not of followers: say so. */}
      {pendingCount > 0 ? (
        <p className="pending-summary">
          {messages.followRequestsWaiting(pendingCount)}{" "}
          {tab === "following" ? <Link to="/people?tab=followers">See the requests</Link> : messages.followRequestsHint}
        </p>
      ) : null}
      {list.length === 0 ? (
        <p className="empty">
          {tab === "followers" ? "Nobody follows you yet. Share your product ID so friends can find you." : "You do not follow anyone yet."}{" "}
          {tab === "following" ? <Link to="/addpublisher">Find people to follow</Link> : null}
        </p>
      ) : (
        <ul className="people-list">
          {list.map((person) => (
            <PersonRow
              key={person.sF_ConsumerSubscriptionId}
              person={person}
              follower={tab === "followers"}
              to={`/${tab === "followers" ? "follower" : "following"}?id=${encodeURIComponent(person.sF_ConsumerSubscriptionId)}`}
              now={now}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** One person; a follower's window shows only to people who follow them back (the API leaves it out otherwise). */
function PersonRow({ person, follower, to, now }: { person: Subscription; follower: boolean; to: string; now: number }) {
  const strength = person.confirmed === 1 ? windowStrength(person, now) : null;
  const hidden = follower && person.strongSafetyDate === null && person.weakSafetyDate === null;
  const state = person.confirmed === 0 ? "Pending" : strength ? `${strength} window` : hidden ? "Follows you" : "No open window";
  return (
    <li>
      <Link to={to} className="person-row">
        <span className="person-name">
          {person.firstName} {person.lastName}
        </span>
        <span className={`person-state ${person.confirmed === 0 ? "pending" : strength ? strength.toLowerCase() : "closed"}`}>{state}</span>
      </Link>
    </li>
  );
}

// app/routes/people.tsx: docs/product/screens.md §2 /people: tabs 'Following' and 'Followers' (the pending count in
// brackets), the 'Add' button; each entry opens its card. The tab lives in the URL (?tab=followers).
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/people";
import { windowStrength } from "~/windows";
import { consumerApi, type Subscription } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";
import { TextOnly, TextSeparator } from "~/components/TextOnly";
import { messagesOf } from "~/server/i18n.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = consumerApi(context);
  const [subscribers, publishers] = await Promise.all([api.subscribers(), api.publishers()]);
  const [followers, following] = [valueOrThrow(subscribers), valueOrThrow(publishers)];
  const tab = new URL(request.url).searchParams.get("tab") === "followers" ? "followers" : "following";
  const pendingCount = followers.filter((s) => s.confirmed === 0).length;
  const m = messagesOf(context);
  const text = {
    title: m.peopleTitle,
    pageTitle: m.peoplePageTitle,
    add: m.addTitle,
    following: m.followingTab,
    followers: m.followersTab(pendingCount),
    current: m.currentTab,
    requestsWaiting: m.followRequestsWaiting(pendingCount),
    requestsHint: m.followRequestsHint,
    seeRequests: m.seeTheRequests,
    noFollowers: m.noFollowers,
    noneFollowed: m.noneFollowed,
    findPeople: m.findPeople,
    rows: { pending: m.personPending, Strong: m.strongWindowRow, Weak: m.weakWindowRow, followsYou: m.followsYou, noOpenWindow: m.noOpenWindow },
  };
  return { tab, followers, following, pendingCount, now: Date.now(), text };
}

export default function People() {
  const { tab, followers, following, pendingCount, now, text } = useLoaderData<typeof loader>();
  const list = tab === "followers" ? followers : following;
  return (
    <section>
      <div className="heading-row">
        <h1>{text.title}</h1>
        <Link className="button" to="/addpublisher">
          {text.add}
        </Link>
      </div>
      <nav className="tabs" aria-label={text.title}>
        <Link to="/people" className={tab === "following" ? "tab-link active" : "tab-link"} aria-current={tab === "following" ? "page" : undefined}>
          {text.following}
          {tab === "following" ? <TextOnly>{text.current}</TextOnly> : null}
        </Link>
        <TextSeparator />
        <Link
          to="/people?tab=followers"
          className={tab === "followers" ? "tab-link active" : "tab-link"}
          aria-current={tab === "followers" ? "page" : undefined}
        >
          {text.followers}
          {tab === "followers" ? <TextOnly>{text.current}</TextOnly> : null}
        </Link>
      </nav>
      {/* The Followers count (docs/product/screens.md §2) is of requests waiting, not of followers: say so. */}
      {pendingCount > 0 ? (
        <p className="pending-summary">
          {text.requestsWaiting}{" "}
          {tab === "following" ? <Link to="/people?tab=followers">{text.seeRequests}</Link> : text.requestsHint}
        </p>
      ) : null}
      {list.length === 0 ? (
        <p className="empty">
          {tab === "followers" ? text.noFollowers : text.noneFollowed}{" "}
          {tab === "following" ? <Link to="/addpublisher">{text.findPeople}</Link> : null}
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
              text={text.rows}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** One person; a follower's window shows only to people who follow them back (the API leaves it out otherwise). */
function PersonRow({
  person,
  follower,
  to,
  now,
  text,
}: {
  person: Subscription;
  follower: boolean;
  to: string;
  now: number;
  text: { pending: string; Strong: string; Weak: string; followsYou: string; noOpenWindow: string };
}) {
  const strength = person.confirmed === 1 ? windowStrength(person, now) : null;
  const hidden = follower && person.strongSafetyDate === null && person.weakSafetyDate === null;
  const state = person.confirmed === 0 ? text.pending : strength ? text[strength] : hidden ? text.followsYou : text.noOpenWindow;
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

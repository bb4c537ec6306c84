/**
 * My Settings' plain cards (docs/product/screens.md §2 /settings): the personal info summary, a card
 * that links to another screen (Your data, Reviews, Venue Check-In), the account's sign-out forms and
 * 'Local Data' Wipe. Each takes its words in the page's language (from the settings loader's data)
 * and posts, where it posts, as a plain form (it works without JavaScript).
 */
import { Form, Link } from "react-router";

/** The personal info summary, with its Change link to /personalinfo. */
export function PersonalInfoCard({
  text,
  profile,
}: {
  text: { personalInfo: string; name: string; dob: string; postalCode: string; change: string; changePersonalInfo: string };
  profile: { fullName: string; dob: string; postalCode: string };
}) {
  return (
    <section className="card" aria-labelledby="personal-info-heading">
      <h2 id="personal-info-heading">{text.personalInfo}</h2>
      <dl className="summary">
        <dt>{text.name}</dt>
        <dd>{profile.fullName}</dd>
        <dt>{text.dob}</dt>
        <dd>{profile.dob}</dd>
        <dt>{text.postalCode}</dt>
        <dd>{profile.postalCode}</dd>
      </dl>
      <Link className="button secondary" to="/personalinfo" aria-label={text.changePersonalInfo}>
        {text.change}
      </Link>
    </section>
  );
}

/**
 * A card of a title, a hint and one link, headed `${id}-heading`. `download`: the link fetches a file
 * (a full document request, saved rather than shown), as Download my data does.
 */
export function LinkCard({ id, title, hint, link, to, download = false }: { id: string; title: string; hint: string; link: string; to: string; download?: boolean }) {
  const heading = `${id}-heading`;
  return (
    <section className="card" aria-labelledby={heading}>
      <h2 id={heading}>{title}</h2>
      <p>{hint}</p>
      {download ? (
        <Link className="button secondary" to={to} reloadDocument download>
          {link}
        </Link>
      ) : (
        <Link className="button secondary" to={to}>
          {link}
        </Link>
      )}
    </section>
  );
}

/** The account card: Logout, and sign out everywhere (both posts to /logout). */
export function AccountCard({ text }: { text: { account: string; logout: string; signOutEverywhere: string; signOutEverywhereHint: string } }) {
  return (
    <section className="card" aria-labelledby="account-heading">
      <h2 id="account-heading">{text.account}</h2>
      <Form method="post" action="/logout">
        <button type="submit" className="button secondary">
          {text.logout}
        </button>
      </Form>
      <p>{text.signOutEverywhereHint}</p>
      <Form method="post" action="/logout">
        <input type="hidden" name="everywhere" value="1" />
        <button type="submit" className="button secondary">
          {text.signOutEverywhere}
        </button>
      </Form>
    </section>
  );
}

/** 'Local Data' Wipe: a post to /wipe. */
export function LocalDataCard({ text }: { text: { localData: string; localDataHint: string; wipe: string } }) {
  return (
    <section className="card" aria-labelledby="local-data-heading">
      <h2 id="local-data-heading">{text.localData}</h2>
      <p>{text.localDataHint}</p>
      <Form method="post" action="/wipe">
        <button type="submit" className="button danger">
          {text.wipe}
        </button>
      </Form>
    </section>
  );
}

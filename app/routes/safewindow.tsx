// app/routes/safewindow.tsx: docs/product/screens.md §2 /safewindow 'My Safe Window': the user's own card and a link
// to the testing philosophy page; and 'Check in at a venue' (docs/venues.md "Check-in"): a post asks for a
// check-in code, shown as text and as a QR code with its time limit. The section shows only for a person
// with My Fun, where the consumer API serves the check-in extension.
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/safewindow";
import { FormMessage } from "~/components/Field";
import { SafeWindowCard, safeWindowCardText } from "~/components/SafeWindowCard";
import { formatInstant } from "~/dates";
import { checkinCodeMinutes } from "../../contracts/consumer.ts";
import { windowStrength } from "~/windows";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { qrSvg } from "~/server/qr.server";
import { requireUser } from "~/server/auth.server";
import { requestContext } from "~/server/context";
import { passOffered } from "~/server/pass.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = consumerApi(context);
  // Check-in codes: for a person whose visits show in My Fun, where the upstream serves the extension.
  const visits = (requireUser(context).enabledScreens ?? []).includes("MyFun");
  const { log } = context.get(requestContext);
  const m = messagesOf(context);
  const [card, checkins] = await Promise.all([api.getSafeWindow(), visits ? api.checkinsSupported() : false]);
  // No profile yet: the gate knows where this user belongs.
  if (!card.ok && card.reason === "notFound") throw redirect("/checkaccountstatus");
  const person = valueOrThrow(card);
  // The SafeWindow Pass: offered while the window is open, where the consumer API serves it.
  const pass = windowStrength(person, Date.now()) !== null && (await passOffered(log, m.verifyUnavailable));
  const timeZone = await timeZoneOf(request, context);
  const language = languageOf(context);
  const text = {
    title: m.safeWindowTitle,
    pageTitle: m.safeWindowPageTitle,
    productId: m.productIdLabel,
    howWeCount: m.howWeCountSafeWindowsLink,
    // Only for a person offered check-in codes: the words a page does not show do not travel.
    checkin: checkins
      ? {
          heading: m.checkinHeading,
          validUntil: m.validUntil,
          hint: m.checkinCodeHint(checkinCodeMinutes),
          unavailable: m.checkinUnavailable,
          newCode: m.newCheckinCode,
          showCode: m.showCheckinCode,
        }
      : null,
    card: safeWindowCardText(m, language, person, timeZone),
    pass: pass ? { link: m.passLink, offer: m.passOffer } : null,
  };
  return { card: person, now: Date.now(), timeZone, language, text };
}

export async function action({ context }: Route.ActionArgs) {
  const m = messagesOf(context);
  const issued = await consumerApi(context).issueCheckinCode();
  if (!issued.ok) {
    if (issued.reason === "notFound") return data({ code: undefined, error: undefined, unavailable: true }, { status: 404 });
    return data({ code: undefined, error: issued.message, unavailable: false }, failureInit(issued));
  }
  const { code } = issued.value;
  const labels = { text: m.checkinCodeLabel([...code].join(" ")), qr: m.checkinQrLabel(grouped(code)) };
  return { code: { ...issued.value, qr: await qrSvg(code), labels }, error: undefined, unavailable: false };
}

/** A code written in two groups of three, as people read it out: "K7Q 2MX". */
function grouped(code: string): string {
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

export default function SafeWindow() {
  const { card, now, timeZone, language, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const code = actionData?.code;
  return (
    <section>
      <h1>{text.title}</h1>
      <SafeWindowCard person={card} own now={now} timeZone={timeZone} text={text.card} />
      <p className="card-footer">
        {text.productId} <code className="product-id">{card.safeWindowId}</code> ·{" "}
        <Link to="/testing-philosophy">{text.howWeCount}</Link>
      </p>
      {text.pass ? (
        <p className="pass-offer">
          {text.pass.offer}{" "}
          <Link to="/safewindow/pass" className="button secondary">
            {text.pass.link}
          </Link>
        </p>
      ) : null}
      {text.checkin ? (
      <section className="card checkin-code" aria-labelledby="checkin-heading">
        <h2 id="checkin-heading">{text.checkin.heading}</h2>
        {code ? (
          <>
            <p className="code-text" aria-label={code.labels.text}>
              <code>{grouped(code.code)}</code>
            </p>
            <figure className="code-qr" role="img" aria-label={code.labels.qr} dangerouslySetInnerHTML={{ __html: code.qr }} />
            <p role="status">
              {text.checkin.validUntil} <time dateTime={code.expiresAt}>{formatInstant(code.expiresAt, timeZone, language)}</time>. {text.checkin.hint}
            </p>
          </>
        ) : actionData?.unavailable ? (
          <p>{text.checkin.unavailable}</p>
        ) : (
          <p>{text.checkin.hint}</p>
        )}
        <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
        {actionData?.unavailable ? null : (
          <Form method="post">
            <button type="submit" className="button secondary" disabled={navigation.state !== "idle"}>
              {code ? text.checkin.newCode : text.checkin.showCode}
            </button>
          </Form>
        )}
      </section>
      ) : null}
    </section>
  );
}

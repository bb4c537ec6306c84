// app/routes/safewindow.tsx: docs/product/screens.md §2 /safewindow 'My Safe Window': the user's own card and a link
// to the testing philosophy page; and 'Check in at a venue' (docs/venues.md "Check-in"): a post asks for a
// check-in code, shown as text and as a QR code with its time limit. The section shows only for a person
// with My Fun, where the consumer API serves the check-in extension.
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/safewindow";
import { FormMessage } from "~/components/Field";
import { SafeWindowCard } from "~/components/SafeWindowCard";
import { formatInstant } from "~/dates";
import * as messages from "~/messages";
import { qrSvg } from "~/server/qr.server";
import { requireUser } from "~/server/auth.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { failureInit, valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "My Safe Window · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = consumerApi(context);
  // Check-in codes: for a person whose visits show in My Fun, where the upstream serves the extension.
  const visits = (requireUser(context).enabledScreens ?? []).includes("MyFun");
  const [card, checkins] = await Promise.all([api.getSafeWindow(), visits ? api.checkinsSupported() : false]);
  // No profile yet: the gate knows where this user belongs.
  if (!card.ok && card.reason === "notFound") throw redirect("/checkaccountstatus");
  return { card: valueOrThrow(card), now: Date.now(), timeZone: await timeZoneOf(request, context), checkins };
}

export async function action({ context }: Route.ActionArgs) {
  const issued = await consumerApi(context).issueCheckinCode();
  if (!issued.ok) {
    if (issued.reason === "notFound") return data({ code: undefined, error: undefined, unavailable: true }, { status: 404 });
    return data({ code: undefined, error: issued.message, unavailable: false }, failureInit(issued));
  }
  return { code: { ...issued.value, qr: await qrSvg(issued.value.code) }, error: undefined, unavailable: false };
}

/** A code written in two groups of three, as people read it out: "K7Q 2MX". */
function grouped(code: string): string {
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

export default function SafeWindow() {
  const { card, now, timeZone, checkins } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const code = actionData?.code;
  return (
    <section>
      <h1>My Safe Window</h1>
      <SafeWindowCard person={card} own now={now} timeZone={timeZone} />
      <p className="card-footer">
        Product ID <code className="product-id">{card.safeWindowId}</code> ·{" "}
        <Link to="/testing-philosophy">How we count safe windows</Link>
      </p>
      {checkins ? (
      <section className="card checkin-code" aria-labelledby="checkin-heading">
        <h2 id="checkin-heading">Check in at a venue</h2>
        {code ? (
          <>
            <p className="code-text" aria-label={`Check-in code ${[...code.code].join(" ")}`}>
              <code>{grouped(code.code)}</code>
            </p>
            <figure className="code-qr" role="img" aria-label={`QR code of check-in code ${grouped(code.code)}`} dangerouslySetInnerHTML={{ __html: code.qr }} />
            <p role="status">
              Valid until <time dateTime={code.expiresAt}>{formatInstant(code.expiresAt, timeZone)}</time>. {messages.checkinCodeHint}
            </p>
          </>
        ) : actionData?.unavailable ? (
          <p>Check-in codes are not available here.</p>
        ) : (
          <p>{messages.checkinCodeHint}</p>
        )}
        <FormMessage errors={actionData?.error ? [actionData.error] : undefined} />
        {actionData?.unavailable ? null : (
          <Form method="post">
            <button type="submit" className="button secondary" disabled={navigation.state !== "idle"}>
              {code ? "New check-in code" : "Show a check-in code"}
            </button>
          </Form>
        )}
      </section>
      ) : null}
    </section>
  );
}

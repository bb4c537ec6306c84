// app/routes/safewindow.tsx: docs/product.md §2 /safewindow 'My Safe Window': the user's own card and a link
// to the testing philosophy page
import { Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/safewindow";
import { SafeWindowCard } from "~/components/SafeWindowCard";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "My Safe Window · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const card = await consumerApi(context).getSafeWindow();
  // No profile yet: the gate knows where this user belongs.
  if (!card.ok && card.reason === "notFound") throw redirect("/checkaccountstatus");
  return { card: valueOrThrow(card), now: Date.now(), timeZone: await timeZoneOf(request, context) };
}

export default function SafeWindow() {
  const { card, now, timeZone } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>My Safe Window</h1>
      <SafeWindowCard person={card} own now={now} timeZone={timeZone} />
      <p className="card-footer">
        Product ID <code className="product-id">{card.safeWindowId}</code> ·{" "}
        <Link to="/testing-philosophy">How we count safe windows</Link>
      </p>
    </section>
  );
}

// app/routes/safewindow.tsx: docs/product.md §2 /safewindow 'My Safe Window': the user's own card and a link
// to the testing philosophy page
import { Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/safewindow";
import { SafeWindowCard } from "~/components/SafeWindowCard";
import { requireUser } from "~/server/auth.server";
import { timeZoneOf } from "~/server/timezone.server";
import { UpstreamError } from "~/server/upstream/http.server";
import { consumerApi } from "~/server/upstream/consumer.server";

export const meta = () => [{ title: "My Safe Window · SafeWindow" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  try {
    const card = await consumerApi(user).getSafeWindow();
    return { card, now: Date.now(), timeZone: timeZoneOf(request) };
  } catch (error) {
    // No profile yet: the gate knows where this user belongs.
    if (error instanceof UpstreamError && error.status === 404) throw redirect("/checkaccountstatus");
    throw error;
  }
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

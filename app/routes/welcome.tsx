// app/routes/welcome.tsx: docs/product/screens.md §2 /welcome: greets the user with their product ID, explains the
// flow and sharing, links the testing philosophy page; Continue → /safewindow
import { Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/welcome";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export const meta = () => [{ title: "Welcome · SafeWindow" }];

export async function loader({ context }: Route.LoaderArgs) {
  const profile = valueOrThrow(await consumerApi(context).getProfile());
  if (!profile) throw redirect("/yourinfo");
  return { firstName: profile.firstName, safeWindowId: profile.safeWindowId };
}

export default function Welcome() {
  const { firstName, safeWindowId } = useLoaderData<typeof loader>();
  return (
    <section className="card narrow">
      <h1>Welcome, {firstName}!</h1>
      <p>
        Your SafeWindow product ID is <code className="product-id">{safeWindowId}</code>. Friends can find you with it.
      </p>
      <h2>How it works</h2>
      <ol>
        <li>Upload the original PDF your testing lab gave you for a COVID-19 test.</li>
        <li>We check that it is an original from a lab we know and that it is yours: your first name, last name and date of birth must match exactly.</li>
        <li>A negative result opens your safe window: a strong and a weak validity date, counted from when your sample was taken.</li>
      </ol>
      <p>
        <Link to="/testing-philosophy">Read how we count safe windows</Link>
      </p>
      <h2>Share it with friends</h2>
      <p>People can ask to follow you. Once you confirm, they see your safe window card (never your date of birth), and you can follow them back.</p>
      <Link className="button" to="/safewindow">
        Continue
      </Link>
    </section>
  );
}

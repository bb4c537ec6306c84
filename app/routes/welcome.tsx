// app/routes/welcome.tsx: docs/product/screens.md §2 /welcome: greets the user with their product ID, explains the
// flow and sharing, links the testing philosophy page; Continue → /safewindow
import { Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/welcome";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";
import { messagesOf } from "~/server/i18n.server";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

export async function loader({ context }: Route.LoaderArgs) {
  const profile = valueOrThrow(await consumerApi(context).getProfile());
  if (!profile) throw redirect("/yourinfo");
  const m = messagesOf(context);
  return {
    safeWindowId: profile.safeWindowId,
    text: {
      pageTitle: m.welcomePageTitle,
      title: m.welcomeTitle(profile.firstName),
      productIdLead: m.welcomeProductIdLead,
      productIdEnd: m.welcomeProductIdEnd,
      howItWorks: m.howItWorksTitle,
      steps: m.howItWorksSteps,
      howWeCount: m.howWeCountLink,
      share: m.shareTitle,
      shareText: m.shareText,
      continue: m.continueButton,
    },
  };
}

export default function Welcome() {
  const { safeWindowId, text } = useLoaderData<typeof loader>();
  return (
    <section className="card narrow">
      <h1>{text.title}</h1>
      <p>
        {text.productIdLead} <code className="product-id">{safeWindowId}</code>
        {text.productIdEnd}
      </p>
      <h2>{text.howItWorks}</h2>
      <ol>
        <li>{text.steps.upload}</li>
        <li>{text.steps.check}</li>
        <li>{text.steps.window}</li>
      </ol>
      <p>
        <Link to="/testing-philosophy">{text.howWeCount}</Link>
      </p>
      <h2>{text.share}</h2>
      <p>{text.shareText}</p>
      <Link className="button" to="/safewindow">
        {text.continue}
      </Link>
    </section>
  );
}

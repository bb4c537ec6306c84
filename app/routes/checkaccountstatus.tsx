// app/routes/checkaccountstatus.tsx: docs/product/screens.md §2 /checkaccountstatus, the routing gate after sign-in:
// not confirmed → /checkconfirmation; no consumer profile → /yourinfo; otherwise load permissions
// (kept in the session, docs/product/data.md §6) and test results: /safewindow with at least one, else /welcome
// ('Making sure everything is looking good...' shows while it works: on a full load as the page first
// answered (app/server/interstitial.server.ts), in the pending bar on a client-side navigation; on
// error the page says 'There was an error looking up your account information' and offers 'Try again').
import { data, Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/checkaccountstatus";
import { Interstitial } from "~/components/Interstitial";
import * as messages from "~/messages";
import { messagesOf } from "~/server/i18n.server";
import { wantsInterstitial } from "~/server/interstitial.server";
import { saveEnabledScreens } from "~/server/session.server";
import { rememberPostalTimeZone } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { identityApi } from "~/server/upstream/identity.server";
import { failureInit, type Failure } from "~/server/upstream/result.server";

export const meta = () => [{ title: messages.productName }];

/** The gate's one message, whichever call failed (docs/product/screens.md §2 /checkaccountstatus). */
const lookupFailed = (failed: Failure, text: PageText) => data({ error: text.lookupFailed, text }, failureInit(failed));

/** The page's words in the request's language. */
function pageText(context: Route.LoaderArgs["context"]) {
  const m = messagesOf(context);
  return { checking: m.checkingAccount, lookupFailed: m.accountLookupFailed, continue: m.continueButton, tryAgain: m.tryAgainLink };
}
type PageText = ReturnType<typeof pageText>;

export async function loader({ request, context }: Route.LoaderArgs) {
  const text = pageText(context);
  if (wantsInterstitial(request)) return { error: undefined, text };
  // Every sign-in passes here: the four calls go out at once (one round trip instead of three) and
  // are read in the gate's order; a later answer is ignored when an earlier step decides.
  const api = consumerApi(context);
  const [confirmed, profile, screens, results] = await Promise.all([
    identityApi(context).isEmailConfirmed(),
    api.getProfile(),
    api.getPermissions(),
    api.testResults(),
  ]);
  if (!confirmed.ok) return lookupFailed(confirmed, text);
  if (!confirmed.value) return redirect("/checkconfirmation");
  if (!profile.ok) return lookupFailed(profile, text);
  if (!profile.value) return redirect("/yourinfo");
  if (!screens.ok) return lookupFailed(screens, text);
  if (!results.ok) return lookupFailed(results, text);
  saveEnabledScreens(context, screens.value);
  rememberPostalTimeZone(context, profile.value.postalCode);
  return redirect(results.value.length > 0 ? "/safewindow" : "/welcome");
}

export default function CheckAccountStatus() {
  const { error, text } = useLoaderData<typeof loader>();
  if (!error) return <Interstitial title={text.checking} continueLabel={text.continue} />;
  return (
    <section className="card narrow">
      <h1 role="alert">{error}</h1>
      <Link to="/checkaccountstatus" className="button">
        {text.tryAgain}
      </Link>
    </section>
  );
}

// app/routes/pass-keys.tsx: /.well-known/safewindow-pass-keys (docs/product/pass.md §11.6): the keys that
// check SafeWindow Passes, a JWK Set (RFC 7517 §5) as the consumer API publishes them, open to anyone and
// to any site's script (CORS), cacheable for 60 s, so that others can write their own checkers.
// 404 where the consumer API does not serve the pass.
import { data } from "react-router";
import type { Route } from "./+types/pass-keys";
import { requestContext } from "~/server/context";
import { messagesOf } from "~/server/i18n.server";
import { passKeys } from "~/server/pass.server";
import { failureInit } from "~/server/upstream/result.server";

export async function loader({ context }: Route.LoaderArgs) {
  const keys = await passKeys(context.get(requestContext).log, messagesOf(context).verifyUnavailable);
  if (!keys.ok) throw data(null, keys.reason === "notFound" ? { status: 404 } : failureInit(keys));
  return new Response(JSON.stringify(keys.value), {
    headers: {
      "Content-Type": "application/jwk-set+json",
      "Cache-Control": "public, max-age=60",
      "Access-Control-Allow-Origin": "*",
    },
  });
}

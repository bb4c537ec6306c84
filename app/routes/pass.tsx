// app/routes/pass.tsx: the SafeWindow Pass (docs/product/pass.md §11.4), reached from My Safe Window:
// a fresh pass of the person's open window each time the page opens, as a QR code drawn on the server
// (so it shows without JavaScript) and in words, with a one-page PDF of the same (pass.pdf.tsx).
import { data, Link, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/pass";
import { passUrl } from "../../contracts/pass.ts";
import { formatInstant, formatMonthDay } from "~/dates";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { passIssuerOf } from "~/server/pass.server";
import { qrSvg } from "~/server/qr.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.title }] : []);

/** The pass and its words; a closed window answers 409 with the reason instead, and a missing profile goes to the gate. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  const language = languageOf(context);
  const text = { title: m.passTitle, hint: m.passHint, print: m.passPrint, fresh: m.passFresh, back: m.passBackToWindow };
  const issuer = passIssuerOf(request);
  const issued = await consumerApi(context).issuePass(issuer);
  if (!issued.ok && issued.reason === "refused") return data({ pass: null, noWindow: issued.message, text }, { status: 409 });
  // No profile yet: the gate knows where this user belongs.
  if (!issued.ok && issued.reason === "notFound") throw redirect("/checkaccountstatus");
  const pass = valueOrThrow(issued);
  const timeZone = await timeZoneOf(request, context);
  const strong = Date.parse(pass.strongSafetyDate) > Date.now();
  return {
    pass: {
      qr: await qrSvg(passUrl(issuer, pass.pass), 4),
      qrLabel: m.passQrLabel(pass.initials),
      rows: [
        [m.passInitials, pass.initials],
        [m.passBirthday, formatMonthDay(pass.birthMonthDay, language) ?? pass.birthMonthDay],
        ...(strong ? [[m.passStrongUntil, formatInstant(pass.strongSafetyDate, timeZone, language)]] : []),
        [m.passWeakUntil, formatInstant(pass.weakSafetyDate, timeZone, language)],
        [m.passIssued, formatInstant(pass.issuedAt, timeZone, language)],
      ] as [string, string][],
      strong,
      strength: strong ? m.verifyStrong : m.verifyWeak,
    },
    noWindow: null,
    text,
  };
}

export default function Pass() {
  const { pass, noWindow, text } = useLoaderData<typeof loader>();
  return (
    <section className="pass-screen">
      <h1>{text.title}</h1>
      {pass ? (
        <>
          <figure className="pass-qr" role="img" aria-label={pass.qrLabel} dangerouslySetInnerHTML={{ __html: pass.qr }} />
          <p className={pass.strong ? "pass-strength strong" : "pass-strength weak"}>{pass.strength}</p>
          <dl className="pass-words">
            {pass.rows.map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <p>{text.hint}</p>
          <p>
            <Link className="button secondary" to="/safewindow/pass.pdf" reloadDocument>
              {text.print}
            </Link>
          </p>
          <p className="hint">{text.fresh}</p>
        </>
      ) : (
        <p role="status">{noWindow}</p>
      )}
      <p>
        <Link to="/safewindow">{text.back}</Link>
      </p>
    </section>
  );
}

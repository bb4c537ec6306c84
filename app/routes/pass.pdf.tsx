// app/routes/pass.pdf.tsx: "Print or save as PDF" of the pass screen (docs/product/pass.md §11.4): a fresh
// pass of the person's open window on one page (Letter, fitting A4), its QR code and the same words, for
// people without a smartphone and a door without a network. Only to its holder, never cached.
import { redirect } from "react-router";
import type { Route } from "./+types/pass.pdf";
import { passUrl, verifyPath } from "../../contracts/pass.ts";
import { formatInstant, formatMonthDay } from "~/dates";
import { languageOf, messagesOf } from "~/server/i18n.server";
import { passPdf } from "~/server/pass-pdf.server";
import { passIssuerOf } from "~/server/pass.server";
import { timeZoneOf } from "~/server/timezone.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  const language = languageOf(context);
  const issuer = passIssuerOf(request);
  const issued = await consumerApi(context).issuePass(issuer);
  // A closed window: the pass screen says why.
  if (!issued.ok && issued.reason === "refused") throw redirect("/safewindow/pass");
  if (!issued.ok && issued.reason === "notFound") throw redirect("/checkaccountstatus");
  const pass = valueOrThrow(issued);
  const timeZone = await timeZoneOf(request, context);
  const strong = Date.parse(pass.strongSafetyDate) > Date.now();
  const address = `${new URL(issuer).host}${new URL(issuer).pathname.replace(/\/$/, "")}${verifyPath}`;
  const pdf = await passPdf(passUrl(issuer, pass.pass), {
    title: m.passTitle,
    initials: pass.initials,
    birthLabel: m.passBirthday,
    birthDayMonth: formatMonthDay(pass.birthMonthDay, language) ?? pass.birthMonthDay,
    windowLine: strong ? `${m.passStrongUntil} ${formatInstant(pass.strongSafetyDate, timeZone, language)}` : `${m.passWeakUntil} ${formatInstant(pass.weakSafetyDate, timeZone, language)}`,
    ...(strong ? { weakLine: `${m.passWeakUntil} ${formatInstant(pass.weakSafetyDate, timeZone, language)}` } : {}),
    issuedLine: `${m.passIssued} ${formatInstant(pass.issuedAt, timeZone, language)}`,
    checkLine: m.passPdfCheckLine(address),
    address,
  });
  return new Response(pdf as BodyInit, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${m.passPdfFileName}"`,
      "Content-Length": String(pdf.byteLength),
      "Cache-Control": "no-store",
    },
  });
}

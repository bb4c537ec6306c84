// Mail of the identity authority (docs/architecture/README.md §2 "mail"): the templates of the account mails.
// The transport (SMTP, or .eml files in an outbox directory) is services/shared/mail.ts; outbox.ts
// queues mails in the database and calls them.
import type { MailLanguage } from "../shared/language.ts";
import { DEFAULT_SUPPORT_EMAIL, escapeHtml, formatUtc, inLanguage, notice } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/mail.ts";
import type { NoticeKind, TokenPurpose } from "./schema/tables.ts";

export { DEFAULT_MAIL_FROM, DEFAULT_SUPPORT_EMAIL, createMailer, formatUtc } from "../shared/mail.ts";
export type { Mailer, MailerOptions, OutgoingMail } from "../shared/mail.ts";

/**
 * The link a mail points to: `${publicUrl}/${page}?<params>`. `requestedUri` replaces
 * `${publicUrl}/${page}` only when it is an absolute http(s) URL on publicUrl's origin whose
 * path lies strictly below publicUrl's path (no credentials); its query and fragment are
 * dropped. Anything else is ignored, so a mail never points outside the app.
 */
export function buildLink(publicUrl: string, page: string, params: Record<string, string>, requestedUri?: string): string {
  const base = trustedRequestedBase(publicUrl, requestedUri) ?? `${publicUrl}/${page}`;
  return `${base}?${new URLSearchParams(params).toString()}`;
}

function trustedRequestedBase(publicUrl: string, requestedUri: string | undefined): string | null {
  if (!requestedUri) return null;
  let requested: URL;
  let pub: URL;
  try {
    requested = new URL(requestedUri);
    pub = new URL(publicUrl);
  } catch {
    return null;
  }
  if (requested.protocol !== "http:" && requested.protocol !== "https:") return null;
  if (requested.username || requested.password || requested.origin !== pub.origin) return null;
  const basePath = pub.pathname.replace(/\/+$/, "");
  if (!requested.pathname.startsWith(`${basePath}/`)) return null;
  if (requested.pathname.slice(basePath.length + 1).replace(/\/+$/, "") === "") return null;
  return `${requested.origin}${requested.pathname}`;
}

function message(to: string, subject: string, intro: string, link: string, action: string, footer: string): OutgoingMail {
  const text = `${intro}\n\n${link}\n\n${footer}\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<p>${escapeHtml(intro)}</p>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
    `<p style="word-break:break-all">${escapeHtml(link)}</p>` +
    `<p>${escapeHtml(footer)}</p></body></html>`;
  return { to, subject, text, html, links: [link] };
}

/** A mail with a single-use link: which mail, to whom, and its link's token (the outbox row). */
export interface LinkMail {
  kind: TokenPurpose;
  to: string;
  /** The raw single-use token the link carries. */
  token: string;
  /** The caller's requestedUri for confirm and reset links; buildLink checks it. */
  requestedUri?: string;
  /** The mail's language (docs/product/calls.md §7.4 "The mail's language"); default English. */
  language?: MailLanguage;
}

/** A notice: tells `to` of a change to its account made at `at`; it carries no token. */
export type NoticeMail =
  | { kind: Exclude<NoticeKind, "email_changed">; to: string; at: Date; language?: MailLanguage }
  /** To the old address; `newAddress` is the account's address since the change. */
  | { kind: "email_changed"; to: string; at: Date; newAddress: string; language?: MailLanguage };

/** What an account mail is made of, as the outbox keeps it. */
export type AccountMail = LinkMail | NoticeMail;

/**
 * The renderer of every account mail. Link mails (docs/product/data.md §4: confirm e-mail, reset password,
 * account confirmation for invitations) link to the app's pages /confirmemail, /resetpassword,
 * /confirmaccount with `?email=…&token=…`. Notices (services/identity/README.md "Mails") tell
 * an address of a password change or reset, or that the account moved to another address, with
 * the time of the change in UTC and what to do when it was not them: the password notices link
 * to the app's /requestpasswordchange, and every notice names `supportEmail`. The outbox renders
 * a mail when it sends it. Each mail is written in its `language` (docs/product/calls.md §7.4 "The
 * mail's language"): English, the product rules' text, unless it says Spanish, which uses the terms of
 * docs/glossary-es.md (usted).
 * @param publicUrl the app's public URL incl. base path, no trailing slash.
 * @param supportEmail the address someone who did not make a change writes to.
 */
export function accountMailRenderer(publicUrl: string, supportEmail: string = DEFAULT_SUPPORT_EMAIL): (mail: AccountMail) => OutgoingMail {
  const resetPage = { href: `${publicUrl}/requestpasswordchange`, label: "Ask for a password reset link" };
  const spanish = spanishAccountMailRenderer(publicUrl, supportEmail);
  const english = (mail: AccountMail): OutgoingMail => {
    switch (mail.kind) {
      case "confirm_email":
        return message(
          mail.to,
          "Confirm your SafeWindow e-mail address",
          "Please confirm the e-mail address of your SafeWindow account by opening this link:",
          buildLink(publicUrl, "confirmemail", { email: mail.to, token: mail.token }, mail.requestedUri),
          "Confirm my e-mail address",
          "The link works once and for 24 hours. If you did not ask for a SafeWindow account, ignore this message.",
        );
      case "reset_password":
        return message(
          mail.to,
          "Reset your SafeWindow password",
          "Someone asked to reset the password of your SafeWindow account. To choose a new password, open this link:",
          buildLink(publicUrl, "resetpassword", { email: mail.to, token: mail.token }, mail.requestedUri),
          "Choose a new password",
          "The link works once and for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.",
        );
      case "invite":
        return message(
          mail.to,
          "Set up your SafeWindow account",
          "A SafeWindow account was created for this e-mail address. To set its password, open this link:",
          buildLink(publicUrl, "confirmaccount", { email: mail.to, token: mail.token }),
          "Set my password",
          "The link works once and for 24 hours. If you did not expect this, ignore this message.",
        );
      case "password_changed":
        return notice(
          mail.to,
          "Your SafeWindow password was changed",
          [
            "The password of your SafeWindow account was changed.",
            `Time of the change: ${formatUtc(mail.at)}`,
            "If you made this change, there is nothing more to do.",
            "If you did not, someone else knows your password and has signed in to your account. " +
              "Choose a new password at once: open the page below and ask for a password reset link for this address. " +
              `Then write to ${supportEmail} so that we can help you check your account.`,
            "We send this message whenever the password of your account changes.",
          ],
          resetPage,
        );
      case "password_reset":
        return notice(
          mail.to,
          "Your SafeWindow password was reset",
          [
            "The password of your SafeWindow account was reset with a link sent to this address.",
            `Time of the change: ${formatUtc(mail.at)}`,
            "If you made this change, there is nothing more to do.",
            "If you did not, someone else can read your e-mail or got hold of the link. " +
              "Change the password of your e-mail account first, then ask for a new password reset link on the page below. " +
              `Then write to ${supportEmail} so that we can help you check your account.`,
            "We send this message whenever the password of your account changes.",
          ],
          resetPage,
        );
      case "account_deleted":
        return notice(mail.to, "Your SafeWindow account was deleted", [
          "Your SafeWindow account and everything it held were deleted: your profile, your test results with their images and PDFs, " +
            "your disputes and the people you followed and who followed you. Every browser signed in to it was signed out.",
          `Time of the deletion: ${formatUtc(mail.at)}`,
          "This cannot be undone. You can create a new account with this address at any time.",
          `If you did not delete your account, someone else knew your password. Write to ${supportEmail} at once.`,
        ]);
      case "email_changed":
        return notice(mail.to, "The e-mail address of your SafeWindow account was changed", [
          `The e-mail address of your SafeWindow account was changed from ${mail.to} to ${mail.newAddress}. ` +
            "From now on the account signs in with the new address, and its mail goes there.",
          `Time of the change: ${formatUtc(mail.at)}`,
          "If you made this change, there is nothing more to do.",
          "If you did not, someone else has taken over your account, and this address can no longer sign in to it or reset its password. " +
            `Write to ${supportEmail} at once, from this address, and say that you did not make this change, so that we can help you get your account back.`,
        ]);
    }
  };
  return (mail) => (mail.language === "es" ? inLanguage(spanish(mail), "es") : inLanguage(english(mail), "en"));
}

/** accountMailRenderer's Spanish mails: the same mails, links and layout, in the terms of docs/glossary-es.md. */
function spanishAccountMailRenderer(publicUrl: string, supportEmail: string): (mail: AccountMail) => OutgoingMail {
  const resetPage = { href: `${publicUrl}/requestpasswordchange`, label: "Pedir un enlace para restablecer la contraseña" };
  const ifYouDid = "Si usted hizo este cambio, no tiene que hacer nada más.";
  const every = "Le enviamos este mensaje cada vez que cambia la contraseña de su cuenta.";
  return (mail) => {
    switch (mail.kind) {
      case "confirm_email":
        return message(
          mail.to,
          "Confirme su dirección de correo electrónico de SafeWindow",
          "Confirme la dirección de correo electrónico de su cuenta de SafeWindow abriendo este enlace:",
          buildLink(publicUrl, "confirmemail", { email: mail.to, token: mail.token }, mail.requestedUri),
          "Confirmar mi dirección de correo electrónico",
          "El enlace funciona una sola vez y durante 24 horas. Si usted no pidió una cuenta de SafeWindow, ignore este mensaje.",
        );
      case "reset_password":
        return message(
          mail.to,
          "Restablezca su contraseña de SafeWindow",
          "Alguien pidió restablecer la contraseña de su cuenta de SafeWindow. Para elegir una contraseña nueva, abra este enlace:",
          buildLink(publicUrl, "resetpassword", { email: mail.to, token: mail.token }, mail.requestedUri),
          "Elegir una contraseña nueva",
          "El enlace funciona una sola vez y durante 1 hora. Si usted no lo pidió, ignore este mensaje: su contraseña sigue siendo la misma.",
        );
      case "invite":
        return message(
          mail.to,
          "Configure su cuenta de SafeWindow",
          "Se creó una cuenta de SafeWindow para esta dirección de correo electrónico. Para establecer su contraseña, abra este enlace:",
          buildLink(publicUrl, "confirmaccount", { email: mail.to, token: mail.token }),
          "Establecer mi contraseña",
          "El enlace funciona una sola vez y durante 24 horas. Si usted no esperaba este mensaje, ignórelo.",
        );
      case "password_changed":
        return notice(
          mail.to,
          "Se cambió su contraseña de SafeWindow",
          [
            "Se cambió la contraseña de su cuenta de SafeWindow.",
            `Hora del cambio: ${formatUtc(mail.at, "es")}`,
            ifYouDid,
            "Si no lo hizo, otra persona conoce su contraseña y ha iniciado sesión en su cuenta. " +
              "Elija una contraseña nueva de inmediato: abra la página de abajo y pida un enlace para restablecer la contraseña de esta dirección. " +
              `Después escriba a ${supportEmail} para que podamos ayudarle a revisar su cuenta.`,
            every,
          ],
          resetPage,
        );
      case "password_reset":
        return notice(
          mail.to,
          "Se restableció su contraseña de SafeWindow",
          [
            "Se restableció la contraseña de su cuenta de SafeWindow con un enlace enviado a esta dirección.",
            `Hora del cambio: ${formatUtc(mail.at, "es")}`,
            ifYouDid,
            "Si no lo hizo, otra persona puede leer su correo electrónico o consiguió el enlace. " +
              "Primero cambie la contraseña de su cuenta de correo electrónico; luego pida un nuevo enlace para restablecer la contraseña en la página de abajo. " +
              `Después escriba a ${supportEmail} para que podamos ayudarle a revisar su cuenta.`,
            every,
          ],
          resetPage,
        );
      case "account_deleted":
        return notice(mail.to, "Se eliminó su cuenta de SafeWindow", [
          "Se eliminaron su cuenta de SafeWindow y todo lo que contenía: su perfil, sus resultados de prueba con sus imágenes y archivos PDF, " +
            "sus reclamaciones y las personas a las que seguía y que le seguían. Se cerró la sesión en todos los navegadores que la tenían abierta.",
          `Hora de la eliminación: ${formatUtc(mail.at, "es")}`,
          "Esto no se puede deshacer. Puede crear una cuenta nueva con esta dirección en cualquier momento.",
          `Si usted no eliminó su cuenta, otra persona conocía su contraseña. Escriba a ${supportEmail} de inmediato.`,
        ]);
      case "email_changed":
        return notice(mail.to, "Se cambió la dirección de correo electrónico de su cuenta de SafeWindow", [
          `La dirección de correo electrónico de su cuenta de SafeWindow cambió de ${mail.to} a ${mail.newAddress}. ` +
            "Desde ahora la cuenta inicia sesión con la nueva dirección, y su correo se envía allí.",
          `Hora del cambio: ${formatUtc(mail.at, "es")}`,
          ifYouDid,
          "Si no lo hizo, otra persona se ha apoderado de su cuenta, y esta dirección ya no puede iniciar sesión en ella ni restablecer su contraseña. " +
            `Escriba a ${supportEmail} de inmediato, desde esta dirección, y diga que usted no hizo este cambio, para que podamos ayudarle a recuperar su cuenta.`,
        ]);
    }
  };
}

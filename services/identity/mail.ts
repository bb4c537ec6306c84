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
  const pages: Record<TokenPurpose, string> = { confirm_email: "confirmemail", reset_password: "resetpassword", invite: "confirmaccount" };
  return (mail) => {
    const language: MailLanguage = mail.language === "es" ? "es" : "en";
    const words = ACCOUNT_MAIL_WORDS[language];
    if (isLinkMail(mail)) {
      // An invitation's link always goes to the app's own page; the others may go to the page the app asked for.
      const link = buildLink(publicUrl, pages[mail.kind], { email: mail.to, token: mail.token }, mail.kind === "invite" ? undefined : mail.requestedUri);
      const { subject, intro, action, footer } = words[mail.kind];
      return inLanguage(message(mail.to, subject, intro, link, action, footer), language);
    }
    const written = words[mail.kind]({ ...mail, at: formatUtc(mail.at, language), newAddress: "newAddress" in mail ? mail.newAddress : "" }, supportEmail);
    const resetPage = { href: `${publicUrl}/requestpasswordchange`, label: words.resetPageLabel };
    return inLanguage(notice(mail.to, written.subject, written.paragraphs, written.linksResetPage ? resetPage : undefined), language);
  };
}

/** Whether `mail` carries a single-use link (its kind is a token's purpose), not a notice. */
function isLinkMail(mail: AccountMail): mail is LinkMail {
  return mail.kind === "confirm_email" || mail.kind === "reset_password" || mail.kind === "invite";
}

/** A link mail's words: its subject, the sentence before the link, the link's label, the sentence after. */
interface LinkMailWords {
  subject: string;
  intro: string;
  action: string;
  footer: string;
}

/** A notice's words, given the change's address, time (formatted) and new address, and the support address. */
type NoticeWords = (change: { to: string; at: string; newAddress: string }, supportEmail: string) => { subject: string; paragraphs: string[]; linksResetPage?: true };

/** Every account mail's words in one language. */
type AccountMailWords = Record<TokenPurpose, LinkMailWords> & Record<NoticeKind, NoticeWords> & { resetPageLabel: string };

/**
 * The account mails' words: English, the product rules' text; Spanish in the terms of
 * docs/glossary-es.md (usted), the same mails, links and layout.
 */
const ACCOUNT_MAIL_WORDS: Record<MailLanguage, AccountMailWords> = {
  en: {
    resetPageLabel: "Ask for a password reset link",
    confirm_email: {
      subject: "Confirm your SafeWindow e-mail address",
      intro: "Please confirm the e-mail address of your SafeWindow account by opening this link:",
      action: "Confirm my e-mail address",
      footer: "The link works once and for 24 hours. If you did not ask for a SafeWindow account, ignore this message.",
    },
    reset_password: {
      subject: "Reset your SafeWindow password",
      intro: "Someone asked to reset the password of your SafeWindow account. To choose a new password, open this link:",
      action: "Choose a new password",
      footer: "The link works once and for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.",
    },
    invite: {
      subject: "Set up your SafeWindow account",
      intro: "A SafeWindow account was created for this e-mail address. To set its password, open this link:",
      action: "Set my password",
      footer: "The link works once and for 24 hours. If you did not expect this, ignore this message.",
    },
    password_changed: ({ at }, supportEmail) => ({
      subject: "Your SafeWindow password was changed",
      paragraphs: [
        "The password of your SafeWindow account was changed.",
        `Time of the change: ${at}`,
        "If you made this change, there is nothing more to do.",
        "If you did not, someone else knows your password and has signed in to your account. " +
          "Choose a new password at once: open the page below and ask for a password reset link for this address. " +
          `Then write to ${supportEmail} so that we can help you check your account.`,
        "We send this message whenever the password of your account changes.",
      ],
      linksResetPage: true,
    }),
    password_reset: ({ at }, supportEmail) => ({
      subject: "Your SafeWindow password was reset",
      paragraphs: [
        "The password of your SafeWindow account was reset with a link sent to this address.",
        `Time of the change: ${at}`,
        "If you made this change, there is nothing more to do.",
        "If you did not, someone else can read your e-mail or got hold of the link. " +
          "Change the password of your e-mail account first, then ask for a new password reset link on the page below. " +
          `Then write to ${supportEmail} so that we can help you check your account.`,
        "We send this message whenever the password of your account changes.",
      ],
      linksResetPage: true,
    }),
    account_deleted: ({ at }, supportEmail) => ({
      subject: "Your SafeWindow account was deleted",
      paragraphs: [
        "Your SafeWindow account and everything it held were deleted: your profile, your test results with their images and PDFs, " +
          "your disputes and the people you followed and who followed you. Every browser signed in to it was signed out.",
        `Time of the deletion: ${at}`,
        "This cannot be undone. You can create a new account with this address at any time.",
        `If you did not delete your account, someone else knew your password. Write to ${supportEmail} at once.`,
      ],
    }),
    email_changed: ({ to, at, newAddress }, supportEmail) => ({
      subject: "The e-mail address of your SafeWindow account was changed",
      paragraphs: [
        `The e-mail address of your SafeWindow account was changed from ${to} to ${newAddress}. ` +
          "From now on the account signs in with the new address, and its mail goes there.",
        `Time of the change: ${at}`,
        "If you made this change, there is nothing more to do.",
        "If you did not, someone else has taken over your account, and this address can no longer sign in to it or reset its password. " +
          `Write to ${supportEmail} at once, from this address, and say that you did not make this change, so that we can help you get your account back.`,
      ],
    }),
  },
  es: {
    resetPageLabel: "Solicitar un enlace para restablecer la contraseña",
    confirm_email: {
      subject: "Confirme su dirección de correo electrónico de SafeWindow",
      intro: "Confirme la dirección de correo electrónico de su cuenta de SafeWindow abriendo este enlace:",
      action: "Confirmar mi dirección de correo electrónico",
      footer: "El enlace funciona una sola vez y durante 24 horas. Si usted no solicitó una cuenta de SafeWindow, ignore este mensaje.",
    },
    reset_password: {
      subject: "Restablezca su contraseña de SafeWindow",
      intro: "Alguien solicitó restablecer la contraseña de su cuenta de SafeWindow. Para elegir una contraseña nueva, abra este enlace:",
      action: "Elegir una contraseña nueva",
      footer: "El enlace funciona una sola vez y durante 1 hora. Si usted no lo solicitó, ignore este mensaje: su contraseña sigue siendo la misma.",
    },
    invite: {
      subject: "Configure su cuenta de SafeWindow",
      intro: "Se creó una cuenta de SafeWindow para esta dirección de correo electrónico. Para establecer su contraseña, abra este enlace:",
      action: "Establecer mi contraseña",
      footer: "El enlace funciona una sola vez y durante 24 horas. Si usted no esperaba este mensaje, ignórelo.",
    },
    password_changed: ({ at }, supportEmail) => ({
      subject: "Se cambió su contraseña de SafeWindow",
      paragraphs: [
        "Se cambió la contraseña de su cuenta de SafeWindow.",
        `Hora del cambio: ${at}`,
        "Si usted hizo este cambio, no tiene que hacer nada más.",
        "Si no lo hizo, otra persona conoce su contraseña y ha iniciado sesión en su cuenta. " +
          "Elija una contraseña nueva de inmediato: abra la página de abajo y solicite un enlace para restablecer la contraseña de esta dirección. " +
          `Después escriba a ${supportEmail} para que podamos ayudarle a revisar su cuenta.`,
        "Le enviamos este mensaje cada vez que cambia la contraseña de su cuenta.",
      ],
      linksResetPage: true,
    }),
    password_reset: ({ at }, supportEmail) => ({
      subject: "Se restableció su contraseña de SafeWindow",
      paragraphs: [
        "Se restableció la contraseña de su cuenta de SafeWindow con un enlace enviado a esta dirección.",
        `Hora del cambio: ${at}`,
        "Si usted hizo este cambio, no tiene que hacer nada más.",
        "Si no lo hizo, otra persona puede leer su correo electrónico o consiguió el enlace. " +
          "Primero cambie la contraseña de su cuenta de correo electrónico; luego solicite un nuevo enlace para restablecer la contraseña en la página de abajo. " +
          `Después escriba a ${supportEmail} para que podamos ayudarle a revisar su cuenta.`,
        "Le enviamos este mensaje cada vez que cambia la contraseña de su cuenta.",
      ],
      linksResetPage: true,
    }),
    account_deleted: ({ at }, supportEmail) => ({
      subject: "Se eliminó su cuenta de SafeWindow",
      paragraphs: [
        "Se eliminaron su cuenta de SafeWindow y todo lo que contenía: su perfil, sus resultados de prueba con sus imágenes y archivos PDF, " +
          "sus reclamaciones y las personas a las que seguía y que le seguían. Se cerró la sesión en todos los navegadores que la tenían abierta.",
        `Hora de la eliminación: ${at}`,
        "Esto no se puede deshacer. Puede crear una cuenta nueva con esta dirección en cualquier momento.",
        `Si usted no eliminó su cuenta, otra persona conocía su contraseña. Escriba a ${supportEmail} de inmediato.`,
      ],
    }),
    email_changed: ({ to, at, newAddress }, supportEmail) => ({
      subject: "Se cambió la dirección de correo electrónico de su cuenta de SafeWindow",
      paragraphs: [
        `La dirección de correo electrónico de su cuenta de SafeWindow cambió de ${to} a ${newAddress}. ` +
          "Desde ahora se inicia sesión con la nueva dirección, y el correo de la cuenta se envía allí.",
        `Hora del cambio: ${at}`,
        "Si usted hizo este cambio, no tiene que hacer nada más.",
        "Si no lo hizo, otra persona se ha apoderado de su cuenta, y ya no se puede iniciar sesión con esta dirección ni restablecer la contraseña con ella. " +
          `Escriba a ${supportEmail} de inmediato, desde esta dirección, y diga que usted no hizo este cambio, para que podamos ayudarle a recuperar su cuenta.`,
      ],
    }),
  },
};

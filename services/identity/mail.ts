// Mail of the identity authority (DESIGN.md §2 "mail"): nodemailer over SMTP when configured,
// otherwise each message is written to an outbox directory as a raw .eml file. This is the
// transport and the templates; outbox.ts queues mails in the database and calls them.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import { MailDeliveryError } from "./errors.ts";
import type { TokenPurpose } from "./schema/tables.ts";
import { redactUrl } from "../shared/redact.ts";

export const DEFAULT_MAIL_FROM = "SafeWindow <no-reply@safewindow.local>";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links in the message, logged with their secrets redacted. */
  links: string[];
}

/** A mail transport: SMTP, or the directory of .eml files. */
export interface Mailer {
  /** Sends one message, logging it with its links redacted. @throws MailDeliveryError when the transport or the file write fails. */
  send(mail: OutgoingMail): Promise<void>;
  /** Closes the transport's connections; sends after this fail. */
  close(): void;
}

export interface MailerOptions {
  /** nodemailer SMTP URL (smtp://user:pass@host:port, smtps://…). Unset: write to outboxDir. */
  smtpUrl?: string;
  from: string;
  /** Where raw messages go when smtpUrl is unset: `<ISO time, ':' as '-'>-<random>.eml`. */
  outboxDir: string;
  logger: Logger;
}

/**
 * Creates the mail sender. With smtpUrl, messages go over SMTP (10 s connect, 30 s socket
 * timeouts). Without, each message is written to `outboxDir` as raw RFC 822 and logged at info
 * with its file and its links (tokens redacted: the file holds the usable link).
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport({
      url: opts.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      async send(mail) {
        try {
          const info = await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
          opts.logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId, links: mail.links.map(redactUrl) }, "mail sent");
        } catch (err) {
          throw new MailDeliveryError(`SMTP delivery failed: ${(err as Error).message}`, { cause: err });
        }
      },
      close() {
        transport.close();
      },
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        const raw = info.message;
        if (!Buffer.isBuffer(raw)) throw new Error("nodemailer did not buffer the message");
        await mkdir(opts.outboxDir, { recursive: true });
        // Real clock on purpose: file names sort by when they were written, even in tests that pin `now`.
        const name = `${new Date().toISOString().replaceAll(":", "-")}-${randomBytes(4).toString("hex")}.eml`;
        const file = path.join(opts.outboxDir, name);
        await writeFile(file, raw, { mode: 0o600 });
        opts.logger.info({ to: mail.to, subject: mail.subject, file, links: mail.links.map(redactUrl) }, "mail written to outbox (open the file for the link)");
      } catch (err) {
        throw new MailDeliveryError(`Writing the mail to the outbox failed: ${(err as Error).message}`, { cause: err });
      }
    },
    close() {
      transport.close();
    },
  };
}

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

function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
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

/** What an account mail is made of: which mail, to whom, and its link's token (the outbox row). */
export interface AccountMail {
  kind: TokenPurpose;
  to: string;
  /** The raw single-use token the link carries. */
  token: string;
  /** The caller's requestedUri for confirm and reset links; buildLink checks it. */
  requestedUri?: string;
}

/**
 * The renderer of the three account mails of SPEC §4 (confirm e-mail, reset password, account
 * confirmation for invitations), linking to the app's pages /confirmemail, /resetpassword,
 * /confirmaccount with `?email=…&token=…`. The outbox renders a mail when it sends it.
 * @param publicUrl the app's public URL incl. base path, no trailing slash.
 */
export function accountMailRenderer(publicUrl: string): (mail: AccountMail) => OutgoingMail {
  return ({ kind, to, token, requestedUri }) => {
    switch (kind) {
      case "confirm_email":
        return message(
          to,
          "Confirm your SafeWindow e-mail address",
          "Please confirm the e-mail address of your SafeWindow account by opening this link:",
          buildLink(publicUrl, "confirmemail", { email: to, token }, requestedUri),
          "Confirm my e-mail address",
          "The link works once and for 24 hours. If you did not ask for a SafeWindow account, ignore this message.",
        );
      case "reset_password":
        return message(
          to,
          "Reset your SafeWindow password",
          "Someone asked to reset the password of your SafeWindow account. To choose a new password, open this link:",
          buildLink(publicUrl, "resetpassword", { email: to, token }, requestedUri),
          "Choose a new password",
          "The link works once and for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.",
        );
      case "invite":
        return message(
          to,
          "Set up your SafeWindow account",
          "A SafeWindow account was created for this e-mail address. To set its password, open this link:",
          buildLink(publicUrl, "confirmaccount", { email: to, token }),
          "Set my password",
          "The link works once and for 24 hours. If you did not expect this, ignore this message.",
        );
    }
  };
}

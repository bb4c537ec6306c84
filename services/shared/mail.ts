// Mail transport of the reference services (docs/architecture/README.md §2 "mail"): nodemailer over SMTP when
// configured, otherwise each message is written to an outbox directory as a raw .eml file; and the
// plain notice layout both services' templates use. The identity authority's templates live in
// services/identity/mail.ts, the consumer API's in services/consumer/mail.ts; each service's outbox
// (services/shared/outbox.ts) queues mails in its database and calls the transport.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import PostalMime from "postal-mime";
import { MailDeliveryError } from "./errors.ts";
import type { MailLanguage } from "./language.ts";
import { redactUrl } from "../../lib/redact.ts";

export const DEFAULT_MAIL_FROM = "SafeWindow <no-reply@safewindow.local>";
/** Where mails send someone with a question, or who did not make a change (the web app's SUPPORT_EMAIL default too). */
export const DEFAULT_SUPPORT_EMAIL = "support@safewindow.local";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links in the message, logged with their secrets redacted. */
  links: string[];
  /** The language it is written in (inLanguage): sent as its Content-Language header. */
  language?: MailLanguage;
}

/**
 * `mail` marked as written in `language`: the transport sends it with `Content-Language`, and the
 * HTML part's root element (`<html>`, as notice and the services' own layouts write it) gets `lang`,
 * so that mail programs and screen readers read it in that language (docs/product/calls.md §7.4
 * "The mail's language").
 */
export function inLanguage(mail: OutgoingMail, language: MailLanguage): OutgoingMail {
  return { ...mail, language, html: mail.html.replace(/^<!doctype html><html>/, `<!doctype html><html lang="${language}">`) };
}

/** What nodemailer sends of `mail` besides its sender. */
function envelopeOf(mail: OutgoingMail) {
  return { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, ...(mail.language ? { headers: { "Content-Language": mail.language } } : {}) };
}

/** A mail transport: SMTP, or the directory of .eml files. */
export interface Mailer {
  /** Sends one message, logging it with its links redacted. @throws MailDeliveryError when the transport or the file write fails. */
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Deletes every message this transport still keeps that names one of `addresses` (any case) in a
   * header, the subject or the text: the .eml files of the outbox directory; over SMTP nothing is
   * kept, so nothing is deleted. For a deleted account (docs/security/accounts.md "Deleting an account").
   * @returns how many messages were deleted
   * @throws the file system's error when the directory cannot be read or a file not deleted
   */
  forget(addresses: string[]): Promise<number>;
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
          const info = await transport.sendMail({ from: opts.from, ...envelopeOf(mail) });
          opts.logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId, links: mail.links.map(redactUrl) }, "mail sent");
        } catch (err) {
          throw new MailDeliveryError(`SMTP delivery failed: ${(err as Error).message}`, { cause: err });
        }
      },
      async forget() {
        return 0;
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
        const info = await transport.sendMail({ from: opts.from, ...envelopeOf(mail) });
        const raw = info.message;
        if (!Buffer.isBuffer(raw)) throw new Error("nodemailer did not buffer the message");
        await mkdir(opts.outboxDir, { recursive: true, mode: 0o700 });
        // Real clock on purpose: file names sort by when they were written, even in tests that pin `now`.
        const name = `${new Date().toISOString().replaceAll(":", "-")}-${randomBytes(4).toString("hex")}.eml`;
        const file = path.join(opts.outboxDir, name);
        await writeFile(file, raw, { mode: 0o600 });
        opts.logger.info({ to: mail.to, subject: mail.subject, file, links: mail.links.map(redactUrl) }, "mail written to outbox (open the file for the link)");
      } catch (err) {
        throw new MailDeliveryError(`Writing the mail to the outbox failed: ${(err as Error).message}`, { cause: err });
      }
    },
    async forget(addresses) {
      const wanted = addresses.map((a) => a.trim().toLowerCase()).filter((a) => a !== "");
      if (wanted.length === 0) return 0;
      let names: string[];
      try {
        names = (await readdir(opts.outboxDir)).filter((name) => name.endsWith(".eml"));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
        throw err;
      }
      let deleted = 0;
      // One file at a time: a large outbox costs time, never memory.
      for (const name of names) {
        const file = path.join(opts.outboxDir, name);
        let raw: Buffer;
        try {
          raw = await readFile(file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "ENOENT") continue; // deleted meanwhile
          throw err;
        }
        if (!(await namesAny(raw, wanted))) continue;
        await unlink(file).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== "ENOENT") throw err;
        });
        deleted++;
      }
      if (deleted > 0) opts.logger.info({ deleted }, "mails of a deleted account removed from the outbox");
      return deleted;
    },
    close() {
      transport.close();
    },
  };
}

/**
 * True when the raw message names one of `addresses` (lower case) in a header (To, From, Cc, …), the
 * subject, the text or the HTML, as they read once decoded (quoted-printable and base64 undone).
 */
async function namesAny(raw: Buffer, addresses: string[]): Promise<boolean> {
  const mail = await PostalMime.parse(raw);
  const decoded = [mail.subject ?? "", mail.text ?? "", mail.html ?? "", ...mail.headers.map((h) => h.value)].join("\n").toLowerCase();
  return addresses.some((address) => decoded.includes(address));
}

/** `s` with the characters HTML gives a meaning escaped. */
export function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** A notice: paragraphs of plain text, and at most one link (a page of the app, never a token). */
export function notice(to: string, subject: string, paragraphs: string[], link?: { href: string; label: string }): OutgoingMail {
  const blocks = link ? [...paragraphs.slice(0, -1), `${link.label}: ${link.href}`, ...paragraphs.slice(-1)] : paragraphs;
  const text = `${blocks.join("\n\n")}\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    paragraphs
      .map((p, i) => {
        const para = `<p>${escapeHtml(p)}</p>`;
        return link && i === paragraphs.length - 1 ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>${para}` : para;
      })
      .join("") +
    `</body></html>`;
  return { to, subject, text, html, links: link ? [link.href] : [] };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const MONTHS_ES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];

/**
 * The time of a change as notices show it, in UTC and labelled so, with the month named so no
 * reader takes the day for the month: "4 March 2025, 14:05:09 UTC (Coordinated Universal Time)";
 * in Spanish "4 de marzo de 2025, 14:05:09 UTC (tiempo universal coordinado)".
 * @param language the mail's language (services/shared/language.ts); default English.
 */
export function formatUtc(at: Date, language: MailLanguage = "en"): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const clock = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
  if (language === "es") return `${at.getUTCDate()} de ${MONTHS_ES[at.getUTCMonth()]} de ${at.getUTCFullYear()}, ${clock} UTC (tiempo universal coordinado)`;
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${clock} UTC (Coordinated Universal Time)`;
}

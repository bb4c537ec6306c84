// A real SMTP peer for the mail tests (smtp-server on an ephemeral loopback port, no TLS, no auth): it
// keeps every message it receives, as `parse` makes it of the raw RFC 822 bytes.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SmtpPeer<T> {
  /** smtp://127.0.0.1:<port> */
  url: string;
  /** The messages received so far, oldest first. */
  received: T[];
  close(): Promise<void>;
}

/** Starts the peer; a message is accepted once `parse` has made it (a parse error refuses it). */
export async function startSmtpPeer<T = Buffer>(parse: (raw: Buffer) => T | Promise<T> = (raw) => raw as T): Promise<SmtpPeer<T>> {
  const received: T[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        Promise.resolve()
          .then(() => parse(Buffer.concat(chunks)))
          .then((mail) => {
            received.push(mail);
            callback();
          }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** A hold on the messages that match it: `arrived` once one reached the peer; it is accepted only after `release`. */
export interface SmtpHold<T> {
  arrived: Promise<T>;
  release: () => void;
}

/** A peer whose test can hold messages back (startHeldSmtpPeer). */
export interface HeldSmtpPeer<T> extends SmtpPeer<T> {
  /** Holds the next messages that `match` until the hold is released. */
  hold(match: (mail: T) => boolean): SmtpHold<T>;
}

/**
 * An SMTP peer that keeps a message the test holds waiting before it accepts it: the sender's
 * delivery stays in flight (its outbox row claimed, its link already checked) until the test
 * releases it, however long the test's own calls take. Messages no hold matches are accepted at
 * once; `received` lists the accepted ones only.
 */
export async function startHeldSmtpPeer<T>(parse: (raw: Buffer) => T | Promise<T>): Promise<HeldSmtpPeer<T>> {
  const holds: { match: (mail: T) => boolean; arrive: (mail: T) => void; released: Promise<void> }[] = [];
  const peer = await startSmtpPeer(async (raw) => {
    const mail = await parse(raw);
    for (const hold of holds) {
      if (!hold.match(mail)) continue;
      hold.arrive(mail);
      await hold.released;
    }
    return mail;
  });
  const hold = (match: (mail: T) => boolean): SmtpHold<T> => {
    const arrived = Promise.withResolvers<T>();
    const released = Promise.withResolvers<void>();
    holds.push({ match, arrive: arrived.resolve, released: released.promise });
    return { arrived: arrived.promise, release: () => released.resolve() };
  };
  return { ...peer, hold };
}

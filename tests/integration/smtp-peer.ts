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

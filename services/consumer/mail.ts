// Mail of the consumer API (services/consumer/README.md "Mail"): the templates. The transport (SMTP,
// or .eml files in an outbox directory) is services/shared/mail.ts; outbox.ts queues the mails in the
// database and sends them.
import type { MailLanguage } from "../shared/language.ts";
import { formatUtc, inLanguage, notice } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/mail.ts";

/** A dispute's decision as the outbox keeps it (consumer_outbox): what the mail tells. */
export interface DisputeDecidedMail {
  kind: "dispute_decided";
  to: string;
  resultId: string;
  decision: "accept" | "decline";
  /** The reviewer's response (the result's disputeResponseComment). */
  responseComment: string;
  /** The lab's everyday name. */
  publicName: string;
  /** When the specimen was collected. */
  collectedAt: Date;
  /** The mail's language: its owner's kept language (docs/product/calls.md §7.4 "The mail's language"); default English. */
  language?: MailLanguage;
}

/** Every mail the consumer API sends. */
export type ConsumerMail = DisputeDecidedMail;

/**
 * The renderer of the consumer API's mails. A decided dispute (docs/product/screens.md §2 test detail, the
 * promise of `disputeThanks`: "We will email you … when we have reviewed your dispute") says whether
 * it was accepted (the result is now valid) or not, quotes the response, and links to the result's
 * Dispute tab (`${publicUrl}/testdetail?id=…&tab=dispute`), where the response and Contact are.
 * English (the product rules' text) unless the mail's `language` is Spanish, in the terms of
 * docs/glossary-es.md (usted); the reviewer's response is quoted as written.
 * @param publicUrl the app's public URL incl. base path, no trailing slash.
 * @param supportEmail the address for other questions.
 */
export function consumerMailRenderer(publicUrl: string, supportEmail: string): (mail: ConsumerMail) => OutgoingMail {
  return (mail) => {
    const href = `${publicUrl}/testdetail?${new URLSearchParams({ id: mail.resultId, tab: "dispute" })}`;
    if (mail.language === "es") {
      const result = `su resultado de ${mail.publicName} del ${formatUtc(mail.collectedAt, "es")}`;
      const outcome =
        mail.decision === "accept"
          ? `Revisamos su reclamación sobre ${result} y la aceptamos: el resultado ahora es válido y cuenta para su ventana segura.`
          : `Revisamos su reclamación sobre ${result}. No pudimos aceptarla: el resultado sigue como estaba.`;
      return inLanguage(
        notice(
          mail.to,
          "Se revisó su reclamación de SafeWindow",
          [outcome, `Nuestra respuesta: ${mail.responseComment}`, `Si tiene cualquier otra pregunta, escriba a ${supportEmail}.`],
          { href, label: "Abrir el resultado" },
        ),
        "es",
      );
    }
    const result = `your ${mail.publicName} result of ${formatUtc(mail.collectedAt)}`;
    const outcome =
      mail.decision === "accept"
        ? `We reviewed your dispute about ${result} and accepted it: the result is now valid and counts for your safe window.`
        : `We reviewed your dispute about ${result}. We could not accept it: the result stays as it was.`;
    return inLanguage(
      notice(
        mail.to,
        "Your SafeWindow dispute has been reviewed",
        [outcome, `Our response: ${mail.responseComment}`, `If you have any other questions, write to ${supportEmail}.`],
        { href, label: "Open the result" },
      ),
      "en",
    );
  };
}

// Mail of the consumer API (services/consumer/README.md "Mail"): the templates. The transport (SMTP,
// or .eml files in an outbox directory) is services/shared/mail.ts; outbox.ts queues the mails in the
// database and sends them.
import { formatUtc, notice } from "../shared/mail.ts";
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
}

/** Every mail the consumer API sends. */
export type ConsumerMail = DisputeDecidedMail;

/**
 * The renderer of the consumer API's mails. A decided dispute (docs/product/screens.md §2 test detail, the
 * promise of `disputeThanks`: "We will email you … when we have reviewed your dispute") says whether
 * it was accepted (the result is now valid) or not, quotes the response, and links to the result's
 * Dispute tab (`${publicUrl}/testdetail?id=…&tab=dispute`), where the response and Contact are.
 * @param publicUrl the app's public URL incl. base path, no trailing slash.
 * @param supportEmail the address for other questions.
 */
export function consumerMailRenderer(publicUrl: string, supportEmail: string): (mail: ConsumerMail) => OutgoingMail {
  return (mail) => {
    const result = `your ${mail.publicName} result of ${formatUtc(mail.collectedAt)}`;
    const outcome =
      mail.decision === "accept"
        ? `We reviewed your dispute about ${result} and accepted it: the result is now valid and counts for your safe window.`
        : `We reviewed your dispute about ${result}. We could not accept it: the result stays as it was.`;
    return notice(
      mail.to,
      "Your SafeWindow dispute has been reviewed",
      [outcome, `Our response: ${mail.responseComment}`, `If you have any other questions, write to ${supportEmail}.`],
      { href: `${publicUrl}/testdetail?${new URLSearchParams({ id: mail.resultId, tab: "dispute" })}`, label: "Open the result" },
    );
  };
}

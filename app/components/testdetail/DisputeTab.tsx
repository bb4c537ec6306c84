/**
 * Test Detail's Dispute tab (docs/product/screens.md §2 Test Detail, docs/product/data.md §6): the dispute
 * form, a plain form post that works without JavaScript, or what was submitted and the response. Its
 * words and the form's HTML constraints come from the testdetail loader's data.
 */
import { Form, useNavigation } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import type { Constraint } from "@conform-to/dom";
import { FormMessage, TextareaField } from "~/components/Field";
import type { disputeWordKeys } from "~/forms/dispute";
import type { FormWords } from "~/forms/words";
import { useHydrated } from "~/hooks/useHydrated";
import { textareaProps, useValidatedForm } from "~/hooks/useValidatedForm";

/** The Dispute tab's words, in the page's language. */
export interface DisputeText {
  yourSubmission: string;
  ourResponse: string;
  followUp: string;
  contact: string;
  thanks: string;
  intro: string;
  describeDifference: string;
  submit: string;
  /** The dispute form's checks (app/forms/words.ts). */
  disputeForm: FormWords<typeof disputeWordKeys>;
}

/**
 * The Dispute tab (docs/product/screens.md §2 Test Detail): the form, or 'Your Submission' with the 3-hour text or
 * the provider's response. the product's Contact button "does nothing"; here it opens a mail to
 * SUPPORT_EMAIL about this result, which is what the text above it promises. `actionData` is the
 * testdetail action's last answer, `disputeConstraint` the form's HTML constraints.
 */
export function DisputeTab({
  disputeStatus,
  comment,
  response,
  contactHref,
  actionData,
  disputeConstraint,
  text,
}: {
  disputeStatus: 0 | 1;
  comment: string | null;
  response: string | null;
  contactHref: string;
  actionData: { result: SubmissionResult<string[]> } | undefined;
  disputeConstraint: Record<string, Constraint>;
  text: DisputeText;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [, fields, formView] = useValidatedForm(() => import("~/forms/dispute").then((m) => m.disputeSchema(text.disputeForm)), actionData?.result, { constraint: disputeConstraint });
  if (disputeStatus !== 0) {
    return (
      <div className="dispute">
        <h2>{text.yourSubmission}</h2>
        <blockquote>{comment}</blockquote>
        {response ? (
          <>
            <h3>{text.ourResponse}</h3>
            <blockquote>{response}</blockquote>
            <p>{text.followUp}</p>
            <a className="button secondary" href={contactHref}>
              {text.contact}
            </a>
          </>
        ) : actionData ? (
          // Just submitted: the thanks is the post's message, and takes focus (docs/architecture/behaviour.md §4 focus).
          <FormMessage tone="success" errors={[text.thanks]} />
        ) : (
          <p>{text.thanks}</p>
        )}
      </div>
    );
  }
  const empty = !String(fields.disputeComment.value ?? "").trim();
  const commentField = formView.field("disputeComment", disputeConstraint.disputeComment);
  return (
    <Form method="post" {...formView.props} className="dispute">
      <p>{text.intro}</p>
      <FormMessage id={formView.errorId} errors={formView.errors} />
      <TextareaField
        label={text.describeDifference}
        textareaProps={{ ...textareaProps(commentField), required: false, rows: 5 }}
        errorId={commentField.errorId}
        errors={commentField.errors}
      />
      <button type="submit" className="button" disabled={(hydrated && empty) || navigation.state === "submitting"}>
        {text.submit}
      </button>
    </Form>
  );
}

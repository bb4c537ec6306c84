/**
 * The Confirm/Cancel step of docs/product/screens.md §2's Remove and Unfollow actions: a form that posts `intent`,
 * and a Cancel link back to the page without the step (so it works without JavaScript). Its two
 * words come with the root's loader data, in the page's language.
 */
import type { ReactNode } from "react";
import { Form, Link, useNavigation, useRouteLoaderData } from "react-router";
import * as messages from "~/messages";
import type { loader as rootLoader } from "~/root";

export function ConfirmStep({ label, intent, cancelTo, children }: { label: string; intent: string; cancelTo: string; children: ReactNode }) {
  const navigation = useNavigation();
  const text = useRouteLoaderData<typeof rootLoader>("root")?.text.confirmStep;
  return (
    <Form method="post" className="confirm-step" aria-label={label}>
      <p>{children}</p>
      <div className="button-row">
        <button type="submit" name="intent" value={intent} className="button danger" disabled={navigation.state !== "idle"}>
          {text?.confirm ?? messages.confirmButton}
        </button>{" "}
        <Link className="button secondary" to={cancelTo}>
          {text?.cancel ?? messages.cancelButton}
        </Link>
      </div>
    </Form>
  );
}

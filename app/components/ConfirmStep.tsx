/**
 * The Confirm/Cancel step of docs/product/screens.md §2's Remove and Unfollow actions: a form that posts `intent`,
 * and a Cancel link back to the page without the step (so it works without JavaScript).
 */
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";

export function ConfirmStep({ label, intent, cancelTo, children }: { label: string; intent: string; cancelTo: string; children: ReactNode }) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="confirm-step" aria-label={label}>
      <p>{children}</p>
      <div className="button-row">
        <button type="submit" name="intent" value={intent} className="button danger" disabled={navigation.state !== "idle"}>
          Confirm
        </button>{" "}
        <Link className="button secondary" to={cancelTo}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}

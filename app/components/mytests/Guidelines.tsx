/** My Tests' 'Before You Add' dialog (docs/product/screens.md §2 /mytests); its words come from the mytests loader's data. */
import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";

/**
 * docs/product/screens.md §2 'Before You Add': the guidelines, dismissed by a form post that remembers them as
 * read (docs/architecture/behaviour.md §4 modals). Two forms of the same dialog:
 * - **modal** once JavaScript runs and the cookie banner is answered: `showModal()` (the page behind
 *   is inert, focus stays inside; Escape closes it for this visit without remembering it as read,
 *   and focus returns to what opened it);
 * - **inline** otherwise: an open `<dialog>` at the top of the page, the rest of My Tests `inert`
 *   and dimmed (app/routes/mytests.tsx), nothing covered: the header, the tab bar and an unanswered cookie banner
 *   stay usable, and Tab never reaches a control the dialog hides.
 * `key` is the location's: the 'Before You Add' link opens a fresh one after Escape closed the last.
 */
export function Guidelines({ modal, text }: { modal: boolean; text: { title: string; rules: string[]; understood: string } }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    const element = dialog.current;
    if (!modal || !element || element.matches(":modal")) return;
    // Reopened as modal at once; the close event this queues finds it open and is ignored.
    element.close();
    element.showModal();
  }, [modal]);
  if (closed) return null;
  return (
    <dialog
      ref={dialog}
      open
      className={modal ? "guidelines" : "guidelines inline"}
      aria-labelledby="guidelines-heading"
      onClose={(event) => setClosed(!event.currentTarget.open)}
    >
      <h2 id="guidelines-heading">{text.title}</h2>
      <ul>
        {text.rules.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
      <Form method="post" action="/mytests">
        <button type="submit" name="intent" value="guidelines-read" className="button">
          {text.understood}
        </button>
      </Form>
    </dialog>
  );
}

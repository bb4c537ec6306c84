/**
 * My Settings' panels (docs/product/screens.md §2 /settings, §5 settings rules): change the password,
 * change the username, delete the account. Each is a plain form post (it works without
 * JavaScript); `result` is the server's last reply to it and `constraint` the form's HTML
 * constraints, derived from its schema on the server (app/server/form-constraints.server.ts).
 */
import { Form, Link, useNavigation } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import type { Constraint } from "@conform-to/dom";
import { Field, FormMessage } from "~/components/Field";
import { PasswordField } from "~/components/PasswordField";
import { passwordMinLength } from "~/forms/password";
import type { changePasswordWordKeys, changeUserNameWordKeys, deleteAccountWordKeys } from "~/forms/settings";
import type { FormWords } from "~/forms/words";
import { useHydrated } from "~/hooks/useHydrated";
import { inputProps, useValidatedForm } from "~/hooks/useValidatedForm";

/** The panels' words, in the page's language (from the settings loader's data). */
export interface PanelText {
  cancel: string;
  currentPassword: string;
  newPassword: string;
  confirmNewPassword: string;
  passwordRule: string;
  update: string;
  newEmail: string;
  /** The password panel's checks (app/forms/words.ts). */
  passwordForm: FormWords<typeof changePasswordWordKeys>;
  /** The username panel's checks. */
  userNameForm: FormWords<typeof changeUserNameWordKeys>;
}

interface PanelProps {
  result: SubmissionResult<string[]> | undefined;
  constraint: Record<string, Constraint>;
  text: PanelText;
}

/** A settings panel's buttons: its submit (red for an irreversible one), and Cancel back to the closed panels. */
function PanelActions({ label, cancel, disabled, danger = false }: { label: string; cancel: string; disabled: boolean; danger?: boolean }) {
  return (
    <div className="button-row">
      <button type="submit" className={danger ? "button danger" : "button"} disabled={disabled}>
        {label}
      </button>{" "}
      <Link className="button secondary" to="/settings">
        {cancel}
      </Link>
    </div>
  );
}

/** Change password: current, new (with the rule), confirm. */
export function PasswordPanel({ result, constraint, text }: PanelProps) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [, fields, formView] = useValidatedForm(() => import("~/forms/settings").then((m) => m.changePasswordSchema(text.passwordForm)), result, { id: "change-password", constraint });
  const current = String(fields.currentPassword.value ?? "");
  const next = String(fields.newPassword.value ?? "");
  const confirm = String(fields.confirmPassword.value ?? "");
  // docs/product/data.md §5: new is disabled until current has 8+ characters, confirm until new has; Update needs
  // new and confirm non-empty and equal (the product's intent). Only JavaScript can follow the typing.
  const newDisabled = hydrated && current.length < passwordMinLength;
  const confirmDisabled = hydrated && next.length < passwordMinLength;
  const updateDisabled = (hydrated && (!next || next !== confirm)) || navigation.state === "submitting";
  return (
    <Form method="post" {...formView.props}>
      <input type="hidden" name="intent" value="password" />
      <FormMessage id={formView.errorId} errors={formView.errors} />
      <PasswordField label={text.currentPassword} field={formView.field("currentPassword", constraint.currentPassword)} autoComplete="current-password" />
      <PasswordField label={text.newPassword} field={formView.field("newPassword", constraint.newPassword)} autoComplete="new-password" rule={text.passwordRule} disabled={newDisabled} />
      <PasswordField label={text.confirmNewPassword} field={formView.field("confirmPassword", constraint.confirmPassword)} autoComplete="new-password" disabled={confirmDisabled} />
      <PanelActions label={text.update} cancel={text.cancel} disabled={updateDisabled} />
    </Form>
  );
}

/** Change username: the new e-mail and the current password. */
export function UserNamePanel({ result, constraint, text }: PanelProps) {
  const navigation = useNavigation();
  const [, fields, formView] = useValidatedForm(() => import("~/forms/settings").then((m) => m.changeUserNameSchema(text.userNameForm)), result, { id: "change-username", constraint });
  const userName = formView.field("userName", constraint.userName);
  return (
    <Form method="post" {...formView.props}>
      <input type="hidden" name="intent" value="username" />
      <FormMessage id={formView.errorId} errors={formView.errors} />
      <Field
        label={text.newEmail}
        inputProps={{ ...inputProps(userName, { type: "email" }), autoComplete: "email", required: false }}
        errorId={userName.errorId}
        errors={userName.errors}
      />
      <PasswordField label={text.currentPassword} field={formView.field("currentPassword", constraint.currentPassword)} autoComplete="current-password" />
      <PanelActions label={text.update} cancel={text.cancel} disabled={navigation.state === "submitting"} />
    </Form>
  );
}

/** Delete my account: the current password, then the irreversible button. */
/** `words`: the deletion's own words and its form's checks (sent only where deletion is offered). */
export function DeleteAccountPanel({ result, constraint, text, words }: PanelProps & { words: { confirm: string; button: string; form: FormWords<typeof deleteAccountWordKeys> } }) {
  const navigation = useNavigation();
  const [, fields, formView] = useValidatedForm(() => import("~/forms/settings").then((m) => m.deleteAccountSchema(words.form)), result, { id: "delete-account", constraint });
  return (
    <Form method="post" {...formView.props}>
      <input type="hidden" name="intent" value="deleteAccount" />
      <FormMessage id={formView.errorId} errors={formView.errors} />
      <p>{words.confirm}</p>
      <PasswordField label={text.currentPassword} field={formView.field("currentPassword", constraint.currentPassword)} autoComplete="current-password" />
      <PanelActions label={words.button} cancel={text.cancel} danger disabled={navigation.state === "submitting"} />
    </Form>
  );
}

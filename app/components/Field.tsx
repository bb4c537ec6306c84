/**
 * Labelled form fields (docs/architecture/conventions.md §9.3): `Field` (an input), `TextareaField` and
 * `FileField` share one frame that wires the label, aria-invalid and aria-describedby to the hint
 * and the error line (the ids come from conform's field: app/hooks/useValidatedForm.ts `inputProps`), and reserves the
 * error line's height so the layout does not jump.
 */
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { useHydrated } from "~/hooks/useHydrated";

interface FrameProps {
  /** The control's id, for the label. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The id of the error line (conform's `field.errorId`). */
  errorId: string;
  errors?: string[] | undefined;
  /** Announce the errors as an alert (a message the server sent after a post) instead of politely. */
  alert?: boolean;
  /** The control, given the ids it is described by. */
  children: (describedBy: string | undefined) => ReactNode;
  /** Ids the control is described by besides the hint (conform includes the error line's). */
  describedBy?: string | undefined;
}

function FieldFrame({ id, label, hint, errorId, errors, alert, children, describedBy }: FrameProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const ids = [describedBy, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>{" "}
      {children(ids)}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <div className="field-error" id={errorId} {...(alert && errors?.length ? { role: "alert" } : { "aria-live": "polite" as const })}>
        {errors?.map((error) => <p key={error}>{error}</p>)}
      </div>
    </div>
  );
}

export interface FieldProps {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string; key?: string | undefined };
  /** The id conform gives the error line (`field.errorId`). */
  errorId: string;
  errors?: string[] | undefined;
  hint?: ReactNode;
  /** Announce the errors as an alert: a message the server sent after a post (as FileField's). */
  alert?: boolean;
}

/** A labelled input (text, e-mail, date…); `inputProps` from useValidatedForm's `inputProps` (conform's getInputProps). */
export function Field({ label, inputProps, errorId, errors, hint, alert }: FieldProps) {
  const { key, ...props } = inputProps;
  return (
    <FieldFrame id={props.id} label={label} hint={hint} errorId={errorId} errors={errors} alert={alert} describedBy={props["aria-describedby"]}>
      {(describedBy) => <input key={key} {...props} aria-describedby={describedBy} />}
    </FieldFrame>
  );
}

export interface TextareaFieldProps {
  label: ReactNode;
  textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string; key?: string | undefined };
  errorId: string;
  errors?: string[] | undefined;
  hint?: ReactNode;
}

/** A labelled text area; `textareaProps` from useValidatedForm's `textareaProps` (conform's getTextareaProps). */
export function TextareaField({ label, textareaProps, errorId, errors, hint }: TextareaFieldProps) {
  const { key, ...props } = textareaProps;
  return (
    <FieldFrame id={props.id} label={label} hint={hint} errorId={errorId} errors={errors} describedBy={props["aria-describedby"]}>
      {(describedBy) => <textarea key={key} {...props} aria-describedby={describedBy} />}
    </FieldFrame>
  );
}

export interface FileFieldProps {
  label: ReactNode;
  /** The file input's attributes (id, name, accept); the type is "file". */
  inputProps: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { id: string };
  errorId: string;
  /** What the server said about the last file sent; announced as an alert. */
  errors?: string[] | undefined;
  hint?: ReactNode;
}

/**
 * A labelled file picker. Its errors come back from the server after the post (a file cannot be
 * judged before it is sent), so they are an alert, and the input is marked invalid while they show.
 */
export function FileField({ label, inputProps, errorId, errors, hint }: FileFieldProps) {
  const invalid = Boolean(errors?.length);
  return (
    <FieldFrame id={inputProps.id} label={label} hint={hint} errorId={errorId} errors={errors} alert describedBy={errorId}>
      {(describedBy) => <input {...inputProps} type="file" aria-invalid={invalid || undefined} aria-describedby={describedBy} />}
    </FieldFrame>
  );
}

export interface ToggleProps {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string; key?: string | undefined };
  errorId: string;
  errors?: string[] | undefined;
}

/** A checkbox shown as a switch (docs/product/screens.md §2 registration toggles); still a real checkbox without JS. */
export function Toggle({ label, inputProps, errorId, errors }: ToggleProps) {
  const { key, ...props } = inputProps;
  return (
    <div className="field toggle">
      <input key={key} {...props} type="checkbox" role="switch" className="switch" />
      <label htmlFor={props.id}>{label}</label>
      <div className="field-error" id={errorId} aria-live="polite">
        {errors?.map((error) => <p key={error}>{error}</p>)}
      </div>
    </div>
  );
}

/**
 * Form-level messages (errors or notices), announced to screen readers. A message is what a post
 * produced, so it takes focus: `autofocus` in the page as the server sends it (what a browser
 * without JavaScript focuses), and `data-focus-message` for useFocusAfterNavigation once
 * JavaScript runs (never focused on mount then: a message must not take focus while the user types).
 */
export function FormMessage({ id, errors, tone = "error" }: { id?: string; errors?: string[] | undefined; tone?: "error" | "success" | "info" }) {
  const hydrated = useHydrated();
  if (!errors?.length) return <div id={id} className="form-message-empty" />;
  return (
    <div id={id} className={`form-message ${tone}`} role={tone === "error" ? "alert" : "status"} tabIndex={-1} autoFocus={!hydrated} data-focus-message="">
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

/**
 * One labelled form field (docs/architecture.md §9.3): wires id, aria-invalid and
 * aria-describedby to the error line (conform's getInputProps does the ids), and reserves the
 * error line's height so the layout does not jump.
 */
import type { InputHTMLAttributes, ReactNode } from "react";

export interface FieldProps {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string; key?: string | undefined };
  /** The id conform gives the error line (`field.errorId`). */
  errorId: string;
  errors?: string[] | undefined;
  hint?: ReactNode;
}

export function Field({ label, inputProps, errorId, errors, hint }: FieldProps) {
  const { key, ...props } = inputProps;
  const hintId = hint ? `${inputProps.id}-hint` : undefined;
  const describedBy = [props["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={props.id}>{label}</label>
      <input key={key} {...props} aria-describedby={describedBy} />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <div className="field-error" id={errorId} aria-live="polite">
        {errors?.map((error) => <p key={error}>{error}</p>)}
      </div>
    </div>
  );
}

export interface ToggleProps {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string; key?: string | undefined };
  errorId: string;
  errors?: string[] | undefined;
}

/** A checkbox shown as a switch (docs/product.md §2 registration toggles); still a real checkbox without JS. */
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

/** Form-level messages (errors or notices), announced to screen readers. */
export function FormMessage({ id, errors, tone = "error" }: { id?: string; errors?: string[] | undefined; tone?: "error" | "success" | "info" }) {
  if (!errors?.length) return <div id={id} className="form-message-empty" />;
  return (
    <div id={id} className={`form-message ${tone}`} role={tone === "error" ? "alert" : "status"}>
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

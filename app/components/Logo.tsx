import { productName } from "~/messages/shell";

/** The SafeWindow logo: a window with a check mark, and the product name (the same in every language). */
export function Logo({ size = "small" }: { size?: "small" | "large" }) {
  return (
    <span className={`logo logo-${size}`}>
      <svg viewBox="0 0 64 64" aria-hidden="true" focusable="false" className="logo-mark">
        <rect x="6" y="6" width="52" height="52" rx="12" className="logo-frame" />
        <path d="M32 6v52M6 32h52" className="logo-bars" />
        <path d="M20 33l8 8 16-18" className="logo-check" />
      </svg>
      <span className="logo-name">{productName}</span>
    </span>
  );
}

// Moved to services/shared/redact.ts (used by every reference service); kept as the identity
// authority's import path.
export { redactUrl } from "../shared/redact.ts";

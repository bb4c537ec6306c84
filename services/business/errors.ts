// The business API's refusals (contracts/business.ts ApiError codes). Domain code throws them;
// http.ts answers them in its one error handler. The bearer-token and malformed-input errors are
// the shared ones (services/shared/errors.ts).

/** Stable codes of the business API's refusals, with their HTTP status. */
export const businessErrorStatus = {
  invalid_request: 400,
  unknown_postal_code: 400,
  forbidden: 403,
  email_unverified: 403,
  not_found: 404,
  duplicate: 409,
  last_administrator: 409,
  invalid_transition: 409,
} as const;
export type BusinessErrorCode = keyof typeof businessErrorStatus;

/** A refusal: `code` and a plain-English message; `status` follows from the code. */
export class BusinessError extends Error {
  readonly code: BusinessErrorCode;
  readonly status: number;
  constructor(code: BusinessErrorCode, message: string) {
    super(message);
    this.name = "BusinessError";
    this.code = code;
    this.status = businessErrorStatus[code];
  }
}

// Typed errors of the consumer API. Domain code throws them; http.ts maps them to status codes
// and JSON bodies in one place (docs/architecture/conventions.md §9.6). The bearer-token and malformed-input
// errors are the shared ones (services/shared/errors.ts).
import type { FieldError } from "../../contracts/consumer.ts";

/** One failed profile rule, for API users (the web app shows its own docs/product/data.md §5 messages): the contract's FieldError. */
export type { FieldError };

/** Profile input broke a docs/product/data.md §5 / §6 rule: 400 {success:false, errors}. */
export class ProfileRuleError extends Error {
  readonly errors: FieldError[];
  constructor(errors: FieldError[]) {
    super(errors.map((e) => `${e.field ?? "profile"}: ${e.message}`).join("; "));
    this.name = "ProfileRuleError";
    this.errors = errors;
  }
}

/** createprofile for a user who already has a profile: 409. */
export class ProfileExistsError extends Error {
  constructor() {
    super("A profile already exists.");
    this.name = "ProfileExistsError";
  }
}

/** The call needs a profile and the user has none: 404. */
export class NoProfileError extends Error {
  constructor() {
    super("This user has no consumer profile.");
    this.name = "NoProfileError";
  }
}

/** The request names another user than the token's (modifycore's identityUserId): 403. */
export class ForbiddenError extends Error {
  constructor(description: string) {
    super(description);
    this.name = "ForbiddenError";
  }
}

// The identity authority could not be asked: shared by every API that verifies its tokens.
export { AuthorityUnavailableError } from "../shared/errors.ts";

/** A refusal of the venue calls (/search/, /locationvisit/, check-in codes): status, stable code, sentence. */
export class VenueError extends Error {
  readonly status: number;
  readonly code: string;
  /** For a 429: seconds until the caller may try again (the Retry-After header). */
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, code: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = "VenueError";
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The business API, which keeps the venues, could not be asked (down, timed out, or an answer off its contract): 503. */
export class BusinessUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BusinessUnavailableError";
  }
}

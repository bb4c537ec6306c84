// Typed errors every reference service's HTTP boundary understands (docs/architecture/conventions.md §9.6):
// domain and auth code throw them; shared/http.ts#commonErrorAnswer maps them to status and
// JSON. Service-specific errors live beside each service (identity/errors.ts, consumer/errors.ts).

/** Missing, malformed or unverifiable bearer token (RFC 6750 §3.1): 401 invalid_token. */
export class InvalidTokenError extends Error {
  constructor(description: string) {
    super(description);
    this.name = "InvalidTokenError";
  }
}

/** A valid token of the wrong kind (user token on a client call, or the reverse): 403 insufficient_scope. */
export class InsufficientScopeError extends Error {
  constructor(description: string) {
    super(description);
    this.name = "InsufficientScopeError";
  }
}

/** Structurally malformed input (missing parameter, wrong type, bad JSON): 400 invalid_request. */
export class BadRequestError extends Error {
  constructor(description: string) {
    super(description);
    this.name = "BadRequestError";
  }
}

/** A mail transport refused or failed (services/shared/mail.ts): the identity authority answers 502, so the caller can say the mail was not sent. */
export class MailDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MailDeliveryError";
  }
}

/**
 * The identity authority could not be asked (JWKS or discovery unreachable, timed out or
 * malformed), so a token could be neither accepted nor refused: 503, the client may retry.
 */
export class AuthorityUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AuthorityUnavailableError";
  }
}

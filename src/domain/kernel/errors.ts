/**
 * The one error hierarchy of Titlecard. Every error the domain throws on purpose is a
 * {@link TitlecardError} with a stable `code`; each edge maps codes to its own wire shape
 * (`src/http/errors.ts` to HTTP status + body from docs/api.md#errors, `src/mcp` to `isError` results).
 * The domain never throws an HTTP error.
 */

/**
 * Stable error codes. VALIDATION_ERROR and FILE_TOO_LARGE are named by docs/api.md#errors; the others
 * are ours (docs/api.md). Each edge maps every code: `src/http/errors.ts` has one row per code, and
 * a code added here without a row there fails the type check.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'FILE_TOO_LARGE',
  'QUOTA_EXCEEDED',
  'NOT_FOUND',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'RATE_LIMITED',
  'FORBIDDEN',
  'INVALID_LINK',
  'BUSY',
  'UNAVAILABLE',
  'IDEMPOTENCY_MISMATCH',
  'IDEMPOTENCY_IN_FLIGHT',
  'OAUTH_REFUSED',
  'CONFLICT',
  'INVALID_SIGNATURE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The documented set of `details.constraint` values of a VALIDATION_ERROR (docs/api.md#errors names `required`;
 * the rest are ours and listed in docs/api.md and the OpenAPI document).
 */
export const CONSTRAINTS = [
  'required',
  'minLength',
  'maxLength',
  'min',
  'max',
  'enum',
  'type',
  'format',
] as const;
export type Constraint = (typeof CONSTRAINTS)[number];

/** Base class: an error the caller can act on, with a stable code. */
export class TitlecardError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** An invalid or missing parameter (docs/api.md#errors): `field` names it, `constraint` says which rule failed. */
export class ValidationError extends TitlecardError {
  constructor(
    readonly field: string,
    readonly constraint: Constraint,
    message: string,
  ) {
    super('VALIDATION_ERROR', message);
  }
}

/**
 * A URL the SSRF-safe fetchers refuse whatever the time (src/adapters/safe-fetch.ts): a private, loopback or
 * reserved address, another scheme, credentials. Unlike a timeout or a refused connection, trying
 * again cannot help: a webhook delivery to it fails at once.
 */
export class AddressRefusedError extends ValidationError {}

/** An email address that already has an account (field `email`). */
export function emailTakenError(email: string): ValidationError {
  return new ValidationError(
    'email',
    'format',
    `Expected a new email address but ${email} is already registered`,
  );
}

/** The background image is larger than the 10 MB limit (docs/api.md#generate-options). */
export class FileTooLargeError extends TitlecardError {
  constructor(
    readonly limitBytes: number,
    field = 'image',
  ) {
    super(
      'FILE_TOO_LARGE',
      `Expected ${field === 'image' ? 'an image' : 'a file'} of at most ${limitBytes} bytes (${limitBytes / 1024 / 1024} MB) for ${field}`,
    );
  }
}

/** The monthly quota of the caller's tier is used up (docs/api.md#limits). */
export class QuotaExceededError extends TitlecardError {
  constructor(
    readonly quota: number,
    readonly tier: string,
    /** First instant of the next UTC month, when the quota resets. */
    readonly resetAt: Date,
    /** Whole seconds from now until `resetAt`, at least 1. */
    readonly retryAfterSeconds: number,
    /** Where the owner buys a larger plan, with billing on (docs/billing.md). */
    readonly upgradeUrl?: string,
  ) {
    super(
      'QUOTA_EXCEEDED',
      `Monthly quota exceeded: the ${tier} tier allows ${quota} images a month; it resets at ${resetAt.toISOString()}` +
        (upgradeUrl ? `. A workspace owner can upgrade the plan now at ${upgradeUrl}` : ''),
    );
  }
}

/** A resource that does not exist, or that belongs to another user (we do not say which). */
export class NotFoundError extends TitlecardError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

/** What each reason of {@link UnauthorizedError} says (docs/api.md#authentication). */
const UNAUTHORIZED_MESSAGES = {
  missing: 'The Authorization header is required: send Authorization: Bearer <API_TOKEN>',
  scheme:
    'The API token is invalid as sent: the Authorization header must name the Bearer scheme before the token: send Authorization: Bearer <API_TOKEN>',
  invalid: 'The API token is invalid or expired (it may have been revoked)',
} as const;

/**
 * Authentication failed (docs/api.md#authentication): `missing` header, a header without the
 * `Bearer` `scheme` (a token sent as `Authorization: tc_…`; RFC 6750 section 2.1), or an `invalid`
 * (unknown or revoked) token.
 */
export class UnauthorizedError extends TitlecardError {
  constructor(readonly reason: 'missing' | 'scheme' | 'invalid') {
    super('UNAUTHORIZED', UNAUTHORIZED_MESSAGES[reason]);
  }
}

/**
 * A sign-in with an unknown email, a wrong password, or an account without a password: one message
 * for all three, so that the answer never tells whether an email has an account.
 */
export class InvalidCredentialsError extends TitlecardError {
  constructor() {
    super('INVALID_CREDENTIALS', 'Wrong email or password');
  }
}

/** Too many attempts (failed sign-ins, previews): try again after `retryAfterSeconds`. */
export class TooManyAttemptsError extends TitlecardError {
  constructor(
    readonly retryAfterSeconds: number,
    what = 'attempts',
  ) {
    super('RATE_LIMITED', `Too many ${what}: try again in ${retryAfterSeconds} s`);
  }
}

/** An action this deployment does not allow (sign-up when `SIGNUP=closed`). */
export class ForbiddenError extends TitlecardError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

/** A change that the state of other records forbids (deleting an asset a preset uses). */
export class ConflictError extends TitlecardError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

/**
 * A render link whose signature is missing, wrong, made with a revoked or unknown key, or past its
 * expiry: refused (403) without saying more than which.
 */
export class InvalidSignatureError extends TitlecardError {
  constructor(message: string) {
    super('INVALID_SIGNATURE', message);
  }
}

/** An email link that is unknown, already used, or expired (we do not say which). */
export class InvalidLinkError extends TitlecardError {
  constructor() {
    super('INVALID_LINK', 'This link is invalid or has expired; ask for a new one');
  }
}

/**
 * The service is at capacity (the render queue is full, or a store is too contended to answer):
 * try again after `retryAfterSeconds`. Nothing was charged.
 */
export class ServiceBusyError extends TitlecardError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 2,
  ) {
    super('BUSY', message);
  }
}

/**
 * A store or the queue this request needs does not answer (ours, issue 44: a MongoDB, S3 or Redis
 * outage): 503 with `Retry-After` (default 5 s), nothing charged or half-written; a retry after it
 * may succeed. Made from the store's own error by {@link outageOf}.
 */
export class ServiceUnavailableError extends TitlecardError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
  ) {
    super('UNAVAILABLE', message);
  }
}

/** Socket errors (Node's `code`) that mean a server is away, not that the request was wrong. */
const SOCKET_OUTAGES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * An adapter's reading of its own driver's error (one link of a `cause` chain): the
 * {@link ServiceUnavailableError} when it means the server is away or answered too late, else
 * undefined. Each adapter of src/adapters has its own (MongoDB, S3, Redis); the composition root
 * registers them ({@link recognizeOutages}), so the domain knows no driver's error names.
 */
export type OutageRecognizer = (error: Record<string, unknown>) => ServiceUnavailableError | undefined;

const recognizers = new Set<OutageRecognizer>();

/** Adds adapters' {@link OutageRecognizer}s to those {@link outageOf} asks (once each, however often called). */
export function recognizeOutages(...adapters: OutageRecognizer[]): void {
  for (const recognize of adapters) recognizers.add(recognize);
}

/**
 * The {@link ServiceUnavailableError} for a store's or the queue's outage, naming which; undefined
 * for any other error (the error itself when it is one). Asks the adapters' recognizers
 * ({@link recognizeOutages}) of each error of the `cause` chain (five deep), then knows socket
 * errors (a server that refused or dropped the connection) itself.
 */
export function outageOf(err: unknown): ServiceUnavailableError | undefined {
  if (err instanceof ServiceUnavailableError) return err;
  for (
    let e = err as Record<string, unknown> | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as never, depth++
  ) {
    for (const recognize of recognizers) {
      const outage = recognize(e);
      if (outage) return outage;
    }
    if (typeof e.code === 'string' && SOCKET_OUTAGES.has(e.code))
      return new ServiceUnavailableError('A store does not answer: try again in a moment');
  }
  return undefined;
}

/**
 * The OAuth error codes the authorization server answers with: RFC 6749 sections 4.1.2.1 and 5.2,
 * RFC 6750 section 3.1 (`invalid_token`), RFC 8707 section 2 (`invalid_target`) and RFC 7591
 * section 3.2.2 (`invalid_redirect_uri`).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_token'
  | 'invalid_redirect_uri'
  | 'access_denied';

/** A refused OAuth request; the authorization server edge answers it with `oauthCode` (an RFC error code). */
export class OAuthRefusal extends TitlecardError {
  constructor(
    readonly oauthCode: OAuthErrorCode,
    message: string,
  ) {
    super('OAUTH_REFUSED', message);
  }
}

/**
 * The domain error a serialised `{code, message, field, constraint}` stands for (a worker's answer,
 * src/adapters/queue.ts): a ValidationError keeps its field and constraint, a FileTooLargeError the 10 MB
 * limit; another known code keeps its code and message; an unknown one is a fault (a plain Error).
 */
export function errorOf(e: {
  code: string;
  message: string;
  field: string | null;
  constraint: string | null;
}): Error {
  if (e.code === 'VALIDATION_ERROR')
    return new ValidationError(e.field ?? 'body', (e.constraint ?? 'format') as Constraint, e.message);
  if (e.code === 'FILE_TOO_LARGE') return new FileTooLargeError(10 * 1024 * 1024, e.field ?? 'image');
  if ((ERROR_CODES as readonly string[]).includes(e.code))
    return new TitlecardError(e.code as ErrorCode, e.message);
  return new Error(`${e.code}: ${e.message}`);
}

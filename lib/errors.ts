/**
 * Errors are values with a stable code. The code decides the HTTP status (in one place,
 * `errorStatus`); the message is what a client reads and, where the spec gives one, exactly that.
 */
export const errorStatus = {
  BadRequest: 400,
  InvalidJson: 400,
  InvalidUtf8: 400,
  InvalidField: 400,
  InvalidSkill: 400,
  InvalidName: 400,
  InvalidPath: 400,
  InvalidQuery: 400,
  InvalidOtlp: 400,
  InvalidLabel: 400,
  Unauthorized: 401,
  // A credential was sent and is not (or no longer) good: RFC 6750's invalid_token.
  InvalidToken: 401,
  Forbidden: 403,
  BuiltInImmutable: 403,
  FileSkillReadOnly: 403,
  InvitationNotYours: 403,
  NotFound: 404,
  SkillNotFound: 404,
  FileNotFound: 404,
  VersionNotFound: 404,
  RunNotFound: 404,
  PromptSetNotFound: 404,
  AmendmentNotFound: 404,
  EvaluationNotFound: 404,
  TeamNotFound: 404,
  InstallLinkNotFound: 404,
  MemberNotFound: 404,
  InvitationNotFound: 404,
  LabelNotFound: 404,
  WebhookNotFound: 404,
  MethodNotAllowed: 405,
  NameCollision: 409,
  LastLead: 409,
  NotPinned: 409,
  AlreadyMember: 409,
  SkillExists: 409,
  NotADraft: 409,
  AlreadyArchived: 409,
  AmendmentStateChanged: 409,
  // An amendment written against a version the skill has moved past (docs/evaluation-and-activation.md#out-of-date-amendments): it can only be re-proposed.
  AmendmentOutdated: 409,
  // Re-proposing one that is not out of date: it is written against the latest version already.
  NotOutdated: 409,
  // Its change does not apply to the current text: the same lines (or the description) changed since.
  MergeConflict: 409,
  EmptyTree: 409,
  RunNotRunning: 409,
  VersionConflict: 409,
  SyncConflict: 409,
  TeamExists: 409,
  WebhookExists: 409,
  TooManyWebhooks: 409,
  PreconditionFailed: 412,
  PayloadTooLarge: 413,
  NotAcceptable: 406,
  UnsupportedMediaType: 415,
  Unprocessable: 422,
  ReviewRequired: 422,
  ReasonRequired: 400,
  RateLimited: 429,
  InvalidSlug: 400,
  UnknownAction: 400,
  MissingField: 400,
  InvalidVerdict: 400,
  UnknownHypothesis: 404,
  UnknownPrediction: 404,
  PredictionAlreadyJudged: 409,
  SkillMismatch: 409,
  OpenPredictions: 409,
  InternalError: 500,
  ModelFailed: 502,
  DatabaseUnavailable: 503,
  // The database answers, but not this request in time: load, not an outage (docs/outages.md#load-is-not-an-outage).
  Overloaded: 503,
  NoModel: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/**
 * Next bundles route handlers, pages and instrumentation separately, so one error can cross from
 * a module's copy in one bundle to a `catch` in another: `instanceof` would fail there. A
 * process-wide symbol marks our errors instead.
 */
const APP_ERROR = Symbol.for("skillgate.AppError");

export class AppError extends Error {
  readonly [APP_ERROR] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For `RateLimited` and the like: when a retry can succeed, in whole seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export function isAppError(value: unknown): value is AppError {
  return typeof value === "object" && value !== null && (value as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
}

/** The spec's agent-facing form: `Error [<Code>]: <text>`. */
/** For `.catch`: null for our own error of these codes (an expected absence), anything else thrown on. */
export function unlessCode(...codes: ErrorCode[]): (error: unknown) => null {
  return (error) => {
    if (isAppError(error) && codes.includes(error.code)) return null;
    throw error;
  };
}

export function specError(code: ErrorCode, text: string): AppError {
  return new AppError(code, `Error [${code}]: ${text}`);
}

/**
 * What a person reads of an error on a page: the message without the agent-facing
 * `Error [<Code>]: ` prefix, which is an interface for agents, not a sentence for people.
 */
export function pageMessage(error: AppError): string {
  return error.message.replace(/^Error \[[A-Za-z]+\]: /, "");
}

export const skillNotFound = (name: string) =>
  specError("SkillNotFound", `No skill named '${name}'. Use skill_list to see available skills.`);

export const invalidSkill = (text: string) => new AppError("InvalidSkill", `invalid skill: ${text}`);

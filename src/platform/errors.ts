/**
 * Every error a caller sees has the shape `{ error: { code, message } }`. Services throw ApiError; the
 * HTTP layer (platform/http-errors.ts) turns it and every framework error into that shape.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Fields answered beside `error` (a 409's conflicts), for an operation whose schema declares them. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'Authentication required: send "Authorization: Bearer <token>"') => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
/** True for the 404 of something missing (or invisible to the caller); an idempotent delete swallows only that. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.statusCode === 404;
}

export const preconditionFailed = (message: string) => new ApiError(412, message);

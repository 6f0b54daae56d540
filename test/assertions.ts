import assert from 'node:assert/strict';
import type { ApiResponse } from './helpers.ts';
import { ApiError } from '../src/platform/errors.ts';

/**
 * A refusal in the one error shape of the API: the status, a JSON body that is exactly
 * `{ error: { code, message } }` with `code` equal to the status and a message that says something, and
 * (when given) mentions the field or rule: a string it must contain, or a pattern it must match.
 */
export function assertError(res: ApiResponse, status: number, mentions?: string | RegExp): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /^application\/json/, 'an error is JSON');
  assert.deepEqual(Object.keys(res.body ?? {}), ['error'], JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message'], JSON.stringify(res.body));
  assert.equal(res.body.error.code, status);
  assert.equal(typeof res.body.error.message, 'string');
  assert.ok(res.body.error.message.length > 0, 'an error message says something');
  if (typeof mentions === 'string') assert.ok(res.body.error.message.includes(mentions), `"${res.body.error.message}" should mention ${mentions}`);
  else if (mentions) assert.match(res.body.error.message, mentions);
}

/** The body of a call that had to succeed with `status` (the body is shown when it did not). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ok(res: ApiResponse, status = 200): any {
  assert.equal(res.status, status, JSON.stringify(res.body));
  return res.body;
}

/**
 * The same refusal one step below HTTP: a call (a promise, or a function, which may also throw at once) that
 * fails with an `ApiError` of `status` (which the API turns into the error shape above), its message
 * mentioning `mentions` if given. Returns the error.
 */
export async function assertApiError(call: Promise<unknown> | (() => unknown), status: number, mentions?: string | RegExp): Promise<ApiError> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.statusCode, status, error.message);
    if (typeof mentions === 'string') assert.ok(error.message.includes(mentions), `"${error.message}" should mention ${mentions}`);
    else if (mentions) assert.match(error.message, mentions);
    return error;
  }
  assert.fail(`expected an ApiError ${status}`);
}

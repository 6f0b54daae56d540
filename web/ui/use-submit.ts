import { useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client.ts';

/**
 * The field an API message names, as the server words its refusals: Fastify's validation and the services'
 * ("body/title must NOT have fewer than 2 characters", "body/expiresAt must be in the future", "body/label: …"),
 * or a bare name before a colon ("title: …"). Only the first segment: "body/memberships/3 …" names `memberships`.
 * The text beside the field drops the request's part ("body/"), keeping the name the message is about.
 */
export function fieldOfMessage(message: string): { field: string; text: string } | undefined {
  const located = /^(?:body|querystring|params)\/([A-Za-z_][\w-]*)/.exec(message);
  if (located) return { field: located[1]!, text: message.slice(message.indexOf('/') + 1) };
  const named = /^([A-Za-z_][\w-]*): \S/.exec(message);
  return named ? { field: named[1]!, text: message } : undefined;
}

/** An API error placed in a form: beside the field it names (`fields`, by the API's names), or the form's. */
export interface PlacedError<F extends string> {
  /** The message for each field it names: a TextField's `error`. */
  fields: Partial<Record<F, string>>;
  /** The error when it names none of the form's fields (an ErrorNote's `error`), else undefined. */
  form: unknown;
}

/**
 * Where a failed request's message goes in a form: next to the field it names when the form has that field (the
 * field marked invalid and described by it, what the person typed kept), otherwise under the form.
 */
export function placeError<F extends string>(error: unknown, fields: readonly F[]): PlacedError<F> {
  if (!error) return { fields: {}, form: undefined };
  const named = fieldOfMessage(errorMessage(error));
  const field = fields.find((f) => f === named?.field);
  return field && named ? { fields: { [field]: named.text } as Partial<Record<F, string>>, form: undefined } : { fields: {}, form: error };
}

/**
 * A request a form or a button makes: busy while it runs (its buttons disabled), and when it fails the API's
 * message, for the screen to show next to what failed; what the person typed stays, as the form keeps its state.
 * `run` answers whether the request succeeded, for what follows it (clearing a field, saying it was sent).
 * With `fields` (the form's fields, by the API's names), a message naming one of them is `fieldErrors[field]`,
 * for that field's `error`, and `error` is what is left for the form.
 */
export function useRequest<F extends string = never>(fields: readonly F[] = []) {
  const [failure, setFailure] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, event?: FormEvent): Promise<boolean> => {
    event?.preventDefault();
    setFailure(undefined);
    setBusy(true);
    try {
      await action();
      return true;
    } catch (e) {
      setFailure(e instanceof Error ? e : new Error(errorMessage(e)));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const placed = placeError(failure, fields);
  return { run, error: placed.form ? errorMessage(placed.form) : undefined, fieldErrors: placed.fields, busy };
}

/** A request with one action: `submit` is a form's onSubmit (or a button's onClick). */
export function useSubmit<F extends string = never>(action: () => Promise<unknown>, fields: readonly F[] = []) {
  const { run, error, fieldErrors, busy } = useRequest(fields);
  return { submit: (event?: FormEvent) => run(action, event), error, fieldErrors, busy };
}

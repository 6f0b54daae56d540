import { useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client.ts';

/**
 * A request a form or a button makes: busy while it runs (its buttons disabled), and when it fails the API's
 * message, for the screen to show next to what failed; what the person typed stays, as the form keeps its state.
 * `run` answers whether the request succeeded, for what follows it (clearing a field, saying it was sent).
 */
export function useRequest() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, event?: FormEvent): Promise<boolean> => {
    event?.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      await action();
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy };
}

/** A request with one action: `submit` is a form's onSubmit (or a button's onClick). */
export function useSubmit(action: () => Promise<unknown>) {
  const { run, error, busy } = useRequest();
  return { submit: (event?: FormEvent) => run(action, event), error, busy };
}

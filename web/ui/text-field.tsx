import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

/*
 * A labelled text input: the label is its accessible name ("Email", "Title"), the hint and the API's error are its
 * description. The field stays the person's: an error is shown beside it and the typed value is kept (the input
 * is the caller's, controlled or not; nothing here resets it).
 */

interface FieldFrame {
  label: string;
  hint?: ReactNode;
  /** The API's message about this field; marks the input invalid. */
  error?: ReactNode;
  /** Hide the label visually (a search box with a placeholder); it still names the input. */
  hideLabel?: boolean;
  className?: string;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

function Frame({ id, label, hint, error, hideLabel, className, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={className ? `ui-field ${className}` : 'ui-field'}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'ui-field-label'}>{label}</label>
      {children}
      {hint ? <small id={`${id}-hint`} className="ui-field-hint">{hint}</small> : null}
      {error ? <small id={`${id}-error`} className="ui-field-error" role="alert">{error}</small> : null}
    </div>
  );
}

export function TextField({ label, hint, error, hideLabel, className, id: givenId, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const ownId = useId();
  const id = givenId ?? ownId;
  return (
    <Frame id={id} label={label} hint={hint} error={error} hideLabel={hideLabel} className={className}>
      <input id={id} className="ui-input" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...input} />
    </Frame>
  );
}

export function TextArea({ label, hint, error, hideLabel, className, id: givenId, ...textarea }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ownId = useId();
  const id = givenId ?? ownId;
  return (
    <Frame id={id} label={label} hint={hint} error={error} hideLabel={hideLabel} className={className}>
      <textarea id={id} className="ui-input ui-textarea" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...textarea} />
    </Frame>
  );
}

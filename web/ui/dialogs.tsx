import { useState, type ReactElement, type ReactNode } from 'react';
import { AlertDialog as RadixAlertDialog, Dialog as RadixDialog } from 'radix-ui';
import { faXmark } from '@fortawesome/free-solid-svg-icons';
import { Button } from './button.tsx';
import { Icon } from './icon.tsx';
import { errorMessage } from '../api/client.ts';

/*
 * Dialogs are modal: Radix traps focus inside, closes on Escape, returns focus to what opened it, and hides the
 * rest of the page from screen readers while open.
 */

export interface DialogProps {
  title: string;
  description?: ReactNode;
  /** The button that opens it; or control it with open/onOpenChange. */
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
  /** Wider for forms with two columns, lists of people. */
  size?: 'md' | 'lg';
  /** A title for screen readers only, where the content says what it is (the search field). */
  hideTitle?: boolean;
  /** A screen's own placement or layout (the search palette sits near the top). */
  className?: string;
}

export function Dialog({ title, description, trigger, open, onOpenChange, children, size = 'md', hideTitle = false, className }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-overlay" />
        {/* Without a description, aria-describedby={undefined} tells Radix the dialog has none on purpose. */}
        <RadixDialog.Content className={['ui-dialog', `ui-dialog-${size}`, className].filter(Boolean).join(' ')} {...(description ? {} : { 'aria-describedby': undefined })}>
          <div className={hideTitle ? 'ui-dialog-head ui-dialog-head-bare' : 'ui-dialog-head'}>
            <RadixDialog.Title className={hideTitle ? 'sr-only' : 'ui-dialog-title'}>{title}</RadixDialog.Title>
            <RadixDialog.Close asChild>
              <button type="button" className="ui-button ui-button-ghost ui-button-sm ui-icon-button" aria-label="Close">
                <Icon icon={faXmark} />
              </button>
            </RadixDialog.Close>
          </div>
          {description ? <RadixDialog.Description className="ui-dialog-description">{description}</RadixDialog.Description> : null}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export interface AlertDialogProps {
  title: string;
  /** What will happen, in words: "The space and its 12 pages go to the trash for 7 days." */
  description: ReactNode;
  /** The confirming button's words: "Delete space", never "OK". */
  confirm: string;
  /**
   * Runs on confirmation; the dialog stays open with a spinner until it settles, and stays open (showing `error`)
   * if it rejects or answers false (a `useSubmit` that failed).
   */
  onConfirm: () => Promise<unknown> | void;
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The action's failure, shown under the description with the API's message (an error, or the message itself). */
  error?: unknown;
}

/** Confirms a destructive action. Focus starts on Cancel, so Enter alone never destroys anything. */
export function AlertDialog({ title, description, confirm, onConfirm, trigger, open, onOpenChange, error }: AlertDialogProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const run = async (event: { preventDefault(): void }) => {
    // Closing waits for the work: a failure keeps the dialog open with its message.
    event.preventDefault();
    setBusy(true);
    try {
      if ((await onConfirm()) !== false) setOpen(false);
    } catch {
      // The caller shows the error (its `error` prop); the dialog stays open so the person can retry or cancel.
    } finally {
      setBusy(false);
    }
  };
  return (
    <RadixAlertDialog.Root open={isOpen} onOpenChange={setOpen}>
      {trigger ? <RadixAlertDialog.Trigger asChild>{trigger}</RadixAlertDialog.Trigger> : null}
      <RadixAlertDialog.Portal>
        <RadixAlertDialog.Overlay className="ui-overlay" />
        <RadixAlertDialog.Content className="ui-dialog ui-dialog-md">
          <RadixAlertDialog.Title className="ui-dialog-title">{title}</RadixAlertDialog.Title>
          <RadixAlertDialog.Description className="ui-dialog-description">{description}</RadixAlertDialog.Description>
          {error ? <div role="alert" className="ui-field-error">{typeof error === 'string' ? error : errorMessage(error)}</div> : null}
          <div className="ui-dialog-actions">
            <RadixAlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </RadixAlertDialog.Cancel>
            <RadixAlertDialog.Action asChild>
              <Button variant="danger" loading={busy} onClick={(event) => void run(event)}>
                {confirm}
              </Button>
            </RadixAlertDialog.Action>
          </div>
        </RadixAlertDialog.Content>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  );
}

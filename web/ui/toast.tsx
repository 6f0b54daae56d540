import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { Toast as RadixToast } from 'radix-ui';
import { faXmark } from '@fortawesome/free-solid-svg-icons';
import { Icon } from './icon.tsx';

/*
 * Toasts tell the result of work that ran in the background ("Import finished: 12 pages") and errors with the
 * API's message. Radix announces them (a polite live region; errors assertively), pauses their timer on hover and
 * focus, lets F8 reach them and a swipe dismiss them. An error stays until it is closed: it may need reading; one
 * with a button ("Open …") stays 15 s, time to reach for it.
 */

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastMessage {
  title: string;
  description?: ReactNode;
  tone?: ToastTone;
  /** One button in the toast ("Undo", "Open"); `altText` says how to do the same without the toast. */
  action?: { label: string; altText: string; onClick: () => void };
}

interface Shown extends ToastMessage {
  id: number;
}

const ToastContext = createContext<((message: ToastMessage) => void) | null>(null);

/** Shows a toast: `const toast = useToast(); toast({ title: 'Saved' })`. */
export function useToast(): (message: ToastMessage) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast() is used under <ToastProvider>');
  return show;
}

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Shown[]>([]);
  const show = useCallback((message: ToastMessage) => setToasts((list) => [...list.slice(-3), { ...message, id: nextId++ }]), []);
  const remove = (id: number) => setToasts((list) => list.filter((toast) => toast.id !== id));
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      <RadixToast.Provider swipeDirection="right" duration={6000} label="Notification">
        {children}
        {toasts.map((toast) => (
          <RadixToast.Root
            key={toast.id}
            className={`ui-toast ui-toast-${toast.tone ?? 'info'}`}
            type={toast.tone === 'error' ? 'foreground' : 'background'}
            duration={toast.tone === 'error' ? Infinity : toast.action ? 15_000 : undefined}
            onOpenChange={(open) => {
              if (!open) remove(toast.id);
            }}
          >
            <div className="ui-toast-text">
              <RadixToast.Title className="ui-toast-title">{toast.title}</RadixToast.Title>
              {toast.description ? <RadixToast.Description className="ui-toast-description">{toast.description}</RadixToast.Description> : null}
            </div>
            {toast.action ? (
              <RadixToast.Action asChild altText={toast.action.altText}>
                <button type="button" className="ui-button ui-button-secondary ui-button-sm" onClick={toast.action.onClick}>
                  {toast.action.label}
                </button>
              </RadixToast.Action>
            ) : null}
            <RadixToast.Close className="ui-button ui-button-ghost ui-button-sm ui-icon-button" aria-label="Dismiss">
              <Icon icon={faXmark} />
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className="ui-toast-viewport" />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

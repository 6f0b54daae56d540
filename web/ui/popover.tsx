import type { ReactElement, ReactNode } from 'react';
import { Popover as RadixPopover } from 'radix-ui';

/**
 * Something small that opens beside its trigger (a picker, a short form) and is not a menu of actions. Radix keeps
 * it on screen (it flips and shifts), closes it on Escape or a click outside, and returns focus to the trigger.
 */
export function Popover({ trigger, children, label, open, onOpenChange, onCloseAutoFocus, side = 'bottom', align = 'start' }: {
  trigger: ReactElement;
  children: ReactNode;
  /** Its accessible name, when its content has no heading. */
  label?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** As the closed popover gives the focus back to its trigger; `event.preventDefault()` keeps it where it was put. */
  onCloseAutoFocus?: (event: Event) => void;
  side?: 'top' | 'bottom' | 'left' | 'right';
  align?: 'start' | 'center' | 'end';
}) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content className="ui-popover" side={side} align={align} sideOffset={6} collisionPadding={8} aria-label={label} onCloseAutoFocus={onCloseAutoFocus}>
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

/**
 * A popover at a place rather than beside a trigger (a caret, a selection): `rect` in viewport coordinates, or a
 * function that measures it again as the page scrolls. It is positioned and kept on screen as Popover is (flipped
 * above when there is no room below; Radix's `--radix-popover-content-available-height` tells its content how far
 * it may grow), but opened and closed by its owner only. By default it leaves the focus where it is: the editor that
 * opened it keeps the keys (its `/` menu). With `onDismiss` it is a short form the person works in (the editor's
 * link picker): it takes the focus as it opens, and a click elsewhere or Escape closes it through its owner.
 */
export function AnchoredPopover({ rect, children, label, className, side = 'bottom', align = 'start', onEscape, onDismiss }: {
  rect: DOMRect | (() => DOMRect);
  children: ReactNode;
  label?: string;
  className?: string;
  /**
   * Escape, wherever the focus is: Radix sees the key first (on the document) and marks it handled, after which an
   * editor that opened the popover does not act on it: the owner closes what it opened here.
   */
  onEscape?: () => void;
  /** Makes it take the focus; called on a click outside it, and on Escape when there is no `onEscape`. */
  onDismiss?: () => void;
  side?: 'top' | 'bottom';
  align?: 'start' | 'center' | 'end';
}) {
  // A new anchor object per rectangle: Radix reads the anchor on every render (and, for a function, as it scrolls).
  const anchor = { current: { getBoundingClientRect: typeof rect === 'function' ? rect : () => rect } };
  const keep = (event: Event) => event.preventDefault();
  return (
    <RadixPopover.Root open>
      <RadixPopover.Anchor virtualRef={anchor} />
      <RadixPopover.Portal>
        <RadixPopover.Content
          className={className ? `ui-popover ui-popover-anchored ${className}` : 'ui-popover ui-popover-anchored'}
          side={side}
          align={align}
          sideOffset={4}
          collisionPadding={8}
          aria-label={label}
          onOpenAutoFocus={onDismiss ? undefined : keep}
          // The owner puts the focus back (the editor, at its selection): not the document's body.
          onCloseAutoFocus={keep}
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            (onEscape ?? onDismiss)?.();
          }}
          onInteractOutside={(event) => {
            event.preventDefault();
            onDismiss?.();
          }}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

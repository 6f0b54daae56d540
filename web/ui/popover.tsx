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
 * A popover at a place rather than beside a trigger (a caret, a selection): `rect` in viewport coordinates. It is
 * positioned and kept on screen as Popover is (flipped above when there is no room below; Radix's
 * `--radix-popover-content-available-height` tells its content how far it may grow), but opened and closed by its
 * owner only, and it leaves the focus where it is: the editor that opened it keeps the keys (its `/` menu).
 */
export function AnchoredPopover({ rect, children, label, className, side = 'bottom', align = 'start', onEscape }: {
  rect: DOMRect;
  children: ReactNode;
  label?: string;
  className?: string;
  /**
   * Escape, wherever the focus is: Radix sees the key first (on the document) and marks it handled, after which an
   * editor that opened the popover does not act on it: the owner closes what it opened here.
   */
  onEscape?: () => void;
  side?: 'top' | 'bottom';
  align?: 'start' | 'center' | 'end';
}) {
  // A new anchor object per rectangle: Radix reads the anchor on every render.
  const anchor = { current: { getBoundingClientRect: () => rect } };
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
          onOpenAutoFocus={keep}
          onCloseAutoFocus={keep}
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            onEscape?.();
          }}
          onInteractOutside={keep}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

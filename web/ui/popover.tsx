import type { ReactElement, ReactNode } from 'react';
import { Popover as RadixPopover } from 'radix-ui';

/**
 * Something small that opens beside its trigger (a picker, a short form) and is not a menu of actions. Radix keeps
 * it on screen (it flips and shifts), closes it on Escape or a click outside, and returns focus to the trigger.
 */
export function Popover({ trigger, children, label, open, onOpenChange, side = 'bottom', align = 'start' }: {
  trigger: ReactElement;
  children: ReactNode;
  /** Its accessible name, when its content has no heading. */
  label?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  side?: 'top' | 'bottom' | 'left' | 'right';
  align?: 'start' | 'center' | 'end';
}) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content className="ui-popover" side={side} align={align} sideOffset={6} collisionPadding={8} aria-label={label}>
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

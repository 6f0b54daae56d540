import type { ReactElement, ReactNode } from 'react';
import { ContextMenu as RadixContextMenu, DropdownMenu as RadixDropdownMenu } from 'radix-ui';
import { faCheck, faChevronRight, type IconDefinition } from '@fortawesome/free-solid-svg-icons';
import { Icon } from './icon.tsx';

/*
 * Menus: a list of actions opened from a button (DropdownMenu) or by right-click / the context-menu key
 * (ContextMenu). Radix gives the menu role, arrow keys, typeahead, Escape that closes and returns focus to the
 * trigger, and collision handling that keeps the menu on screen; the kit gives the look.
 */

export interface MenuItemProps {
  children: ReactNode;
  onSelect?: (event: Event) => void;
  icon?: IconDefinition;
  /** A destructive action, drawn in the danger colour (it should still confirm, with AlertDialog). */
  danger?: boolean;
  disabled?: boolean;
  /** Render the item as its child (a router Link): the link keeps its role inside the menu item. */
  asChild?: boolean;
}

function itemContent({ icon, children }: Pick<MenuItemProps, 'icon' | 'children'>) {
  return (
    <>
      {icon ? <Icon icon={icon} /> : null}
      {children}
    </>
  );
}

export function DropdownMenu({ trigger, children, align = 'end', label, side, open, onOpenChange, onEscapeKeyDown, onCloseAutoFocus }: {
  trigger: ReactElement;
  children: ReactNode;
  align?: 'start' | 'center' | 'end';
  label?: string;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** Opened by its owner (with `onOpenChange`): the trigger is then only where the menu opens. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Before the menu closes on Escape (the focus may be put elsewhere at once: the trigger gets it a task later). */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  /** As the closed menu gives the focus back to its trigger; `event.preventDefault()` keeps it where it was put. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  // Not modal: a modal menu locks the page's scrolling (the scrollbar disappears and the page shifts) and takes
  // a click outside only to close itself; a menu closes on Escape or a click outside either way.
  return (
    <RadixDropdownMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <RadixDropdownMenu.Trigger asChild>{trigger}</RadixDropdownMenu.Trigger>
      <RadixDropdownMenu.Portal>
        <RadixDropdownMenu.Content
          className="ui-menu"
          align={align}
          side={side}
          sideOffset={6}
          collisionPadding={8}
          aria-label={label}
          onEscapeKeyDown={onEscapeKeyDown}
          onCloseAutoFocus={onCloseAutoFocus}
        >
          {children}
        </RadixDropdownMenu.Content>
      </RadixDropdownMenu.Portal>
    </RadixDropdownMenu.Root>
  );
}

export function DropdownMenuItem({ onSelect, icon, danger, disabled, asChild, children }: MenuItemProps) {
  return (
    <RadixDropdownMenu.Item className={danger ? 'ui-menu-item ui-menu-item-danger' : 'ui-menu-item'} onSelect={onSelect} disabled={disabled} asChild={asChild}>
      {asChild ? children : itemContent({ icon, children })}
    </RadixDropdownMenu.Item>
  );
}

export function DropdownMenuSeparator() {
  return <RadixDropdownMenu.Separator className="ui-menu-separator" />;
}

/** A submenu ("Move to" → its places): opens to the side, or where it fits, with the right arrow key as well. */
export function DropdownMenuSub({ label, icon, disabled, children }: { label: string; icon?: IconDefinition; disabled?: boolean; children: ReactNode }) {
  return (
    <RadixDropdownMenu.Sub>
      <RadixDropdownMenu.SubTrigger className="ui-menu-item ui-menu-sub-trigger" disabled={disabled}>
        {itemContent({ icon, children: label })}
        <Icon icon={faChevronRight} className="ui-menu-sub-arrow" />
      </RadixDropdownMenu.SubTrigger>
      <RadixDropdownMenu.Portal>
        <RadixDropdownMenu.SubContent className="ui-menu" sideOffset={4} collisionPadding={8}>
          {children}
        </RadixDropdownMenu.SubContent>
      </RadixDropdownMenu.Portal>
    </RadixDropdownMenu.Sub>
  );
}

/** One of a set, shown checked (the row's current place in "Move to"). */
export function DropdownMenuCheckItem({ checked, onSelect, children }: { checked: boolean; onSelect: () => void; children: ReactNode }) {
  return (
    <RadixDropdownMenu.CheckboxItem className="ui-menu-item ui-menu-check-item" checked={checked} onSelect={onSelect}>
      <span className="ui-menu-check">
        <RadixDropdownMenu.ItemIndicator>
          <Icon icon={faCheck} />
        </RadixDropdownMenu.ItemIndicator>
      </span>
      {children}
    </RadixDropdownMenu.CheckboxItem>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <RadixDropdownMenu.Label className="ui-menu-label">{children}</RadixDropdownMenu.Label>;
}

/** A menu on right-click (or the context-menu key, or a long press) over its child. */
export function ContextMenu({ target, children }: { target: ReactElement; children: ReactNode }) {
  return (
    <RadixContextMenu.Root modal={false}>
      <RadixContextMenu.Trigger asChild>{target}</RadixContextMenu.Trigger>
      <RadixContextMenu.Portal>
        <RadixContextMenu.Content className="ui-menu" collisionPadding={8}>
          {children}
        </RadixContextMenu.Content>
      </RadixContextMenu.Portal>
    </RadixContextMenu.Root>
  );
}

export function ContextMenuItem({ onSelect, icon, danger, disabled, asChild, children }: MenuItemProps) {
  return (
    <RadixContextMenu.Item className={danger ? 'ui-menu-item ui-menu-item-danger' : 'ui-menu-item'} onSelect={onSelect} disabled={disabled} asChild={asChild}>
      {asChild ? children : itemContent({ icon, children })}
    </RadixContextMenu.Item>
  );
}

export function ContextMenuSeparator() {
  return <RadixContextMenu.Separator className="ui-menu-separator" />;
}

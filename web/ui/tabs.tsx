import type { ReactNode } from 'react';
import { Tabs as RadixTabs } from 'radix-ui';

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
  content: ReactNode;
}

/**
 * Panels one at a time, chosen by a row of tabs (arrow keys move between them). The row scrolls sideways when it
 * is wider than the screen, so five tabs at 390px never push the page wider.
 */
export function Tabs<T extends string>({ label, items, value, defaultValue, onValueChange }: {
  label: string;
  items: readonly TabItem<T>[];
  value?: T;
  defaultValue?: T;
  onValueChange?: (value: T) => void;
}) {
  return (
    <RadixTabs.Root className="ui-tabs" value={value} defaultValue={defaultValue ?? items[0]?.value} onValueChange={onValueChange ? (next) => onValueChange(next as T) : undefined}>
      <RadixTabs.List className="ui-tab-list" aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger key={item.value} value={item.value} className="ui-tab">
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className="ui-tab-panel">
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}

import type { ReactNode } from 'react';
import { ToggleGroup as RadixToggleGroup } from 'radix-ui';

export interface ToggleItem<T extends string> {
  value: T;
  label: ReactNode;
}

/**
 * One choice among a few, shown as a row of chips that filters what is below (a list's status: open, merged…):
 * a radio group (one radio checked; the arrow keys move between them, Tab leaves the row), not tabs, since the
 * list under it stays the same list. Always one chosen: pressing the chosen chip again keeps it.
 */
export function ToggleGroup<T extends string>({ label, items, value, onValueChange }: {
  label: string;
  items: readonly ToggleItem<T>[];
  value: T;
  onValueChange: (value: T) => void;
}) {
  return (
    <RadixToggleGroup.Root
      type="single"
      className="ui-toggle-group"
      aria-label={label}
      value={value}
      onValueChange={(next) => {
        if (next) onValueChange(next as T);
      }}
    >
      {items.map((item) => (
        <RadixToggleGroup.Item key={item.value} value={item.value} className="ui-toggle">
          {item.label}
        </RadixToggleGroup.Item>
      ))}
    </RadixToggleGroup.Root>
  );
}

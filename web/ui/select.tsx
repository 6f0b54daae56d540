import { useId, type ReactNode } from 'react';
import { Select as RadixSelect } from 'radix-ui';
import { faCheck, faChevronDown } from '@fortawesome/free-solid-svg-icons';
import { Icon } from './icon.tsx';

export interface SelectOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
  /** A heading over the options that share it ("Teams", "Members"), in the order they come. */
  group?: string;
}

/** Options in runs of the same group, each run under its heading. */
function groupsOf<T extends string>(options: readonly SelectOption<T>[]): Array<{ group?: string; options: SelectOption<T>[] }> {
  const runs: Array<{ group?: string; options: SelectOption<T>[] }> = [];
  for (const option of options) {
    const last = runs.at(-1);
    if (last && last.group === option.group) last.options.push(option);
    else runs.push({ group: option.group, options: [option] });
  }
  return runs;
}

/**
 * One of a list, in a listbox that Radix keeps on screen, with typeahead and arrow keys. Radix also renders a
 * hidden native <select> when the Select has a `name`, so it takes part in a form like one.
 */
export function Select<T extends string>({ label, hideLabel, hint, options, value, onValueChange, name, disabled, placeholder, size = 'md' }: {
  label: string;
  hideLabel?: boolean;
  hint?: ReactNode;
  options: readonly SelectOption<T>[];
  value: T | undefined;
  onValueChange: (value: T) => void;
  name?: string;
  disabled?: boolean;
  placeholder?: string;
  size?: 'sm' | 'md';
}) {
  const id = useId();
  const item = (option: SelectOption<T>) => (
    <RadixSelect.Item key={option.value} value={option.value} disabled={option.disabled} className="ui-menu-item ui-select-item">
      <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
      <RadixSelect.ItemIndicator className="ui-select-indicator">
        <Icon icon={faCheck} />
      </RadixSelect.ItemIndicator>
    </RadixSelect.Item>
  );
  return (
    <div className="ui-field">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'ui-field-label'}>{label}</label>
      <RadixSelect.Root value={value} onValueChange={(next) => onValueChange(next as T)} name={name} disabled={disabled}>
        <RadixSelect.Trigger id={id} className={`ui-select-trigger ui-select-${size}`} aria-describedby={hint ? `${id}-hint` : undefined}>
          <RadixSelect.Value placeholder={placeholder} />
          <RadixSelect.Icon className="ui-select-icon">
            <Icon icon={faChevronDown} />
          </RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content className="ui-menu ui-select-content" position="popper" sideOffset={4} collisionPadding={8}>
            <RadixSelect.Viewport>
              {groupsOf(options).map((run, i) =>
                run.group ? (
                  <RadixSelect.Group key={`${run.group} ${i}`}>
                    <RadixSelect.Label className="ui-menu-label">{run.group}</RadixSelect.Label>
                    {run.options.map(item)}
                  </RadixSelect.Group>
                ) : (
                  run.options.map(item)
                ),
              )}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
      {hint ? <small id={`${id}-hint`} className="ui-field-hint">{hint}</small> : null}
    </div>
  );
}

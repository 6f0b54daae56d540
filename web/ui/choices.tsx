import { useId, type ReactNode } from 'react';
import { Checkbox as RadixCheckbox, RadioGroup as RadixRadioGroup, Switch as RadixSwitch } from 'radix-ui';
import { faCheck, faMinus } from '@fortawesome/free-solid-svg-icons';
import { Icon } from './icon.tsx';

/*
 * Choices: a Checkbox (one yes/no in a form that is saved later), a Switch (a setting that takes effect at once)
 * and a RadioGroup (one of a few, all visible). Each is labelled by its text; arrow keys move within a group.
 */

interface ChoiceProps {
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
  name?: string;
}

export function Checkbox({ label, hint, checked, onCheckedChange, disabled, name }: ChoiceProps & { checked: boolean | 'indeterminate'; onCheckedChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="ui-choice">
      <RadixCheckbox.Root id={id} className="ui-checkbox" checked={checked} onCheckedChange={(value) => onCheckedChange(value === true)} disabled={disabled} name={name} aria-describedby={hint ? `${id}-hint` : undefined}>
        <RadixCheckbox.Indicator className="ui-checkbox-indicator">
          <Icon icon={checked === 'indeterminate' ? faMinus : faCheck} />
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      <label htmlFor={id}>{label}</label>
      {hint ? <small id={`${id}-hint`} className="ui-field-hint">{hint}</small> : null}
    </div>
  );
}

export function Switch({ label, hint, checked, onCheckedChange, disabled, name }: ChoiceProps & { checked: boolean; onCheckedChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="ui-choice">
      <RadixSwitch.Root id={id} className="ui-switch" checked={checked} onCheckedChange={onCheckedChange} disabled={disabled} name={name} aria-describedby={hint ? `${id}-hint` : undefined}>
        <RadixSwitch.Thumb className="ui-switch-thumb" />
      </RadixSwitch.Root>
      <label htmlFor={id}>{label}</label>
      {hint ? <small id={`${id}-hint`} className="ui-field-hint">{hint}</small> : null}
    </div>
  );
}

export interface RadioOption<T extends string> {
  value: T;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}

export function RadioGroup<T extends string>({ legend, options, value, onValueChange, name, orientation = 'vertical' }: {
  legend: string;
  options: readonly RadioOption<T>[];
  value: T;
  onValueChange: (value: T) => void;
  name?: string;
  orientation?: 'horizontal' | 'vertical';
}) {
  const id = useId();
  return (
    <div className="ui-radio-group-frame">
      <span id={`${id}-legend`} className="ui-field-label">{legend}</span>
      <RadixRadioGroup.Root className={`ui-radio-group ui-radio-group-${orientation}`} aria-labelledby={`${id}-legend`} value={value} onValueChange={(next) => onValueChange(next as T)} name={name} orientation={orientation}>
        {options.map((option) => (
          <div className="ui-choice" key={option.value}>
            <RadixRadioGroup.Item id={`${id}-${option.value}`} className="ui-radio" value={option.value} disabled={option.disabled} aria-describedby={option.hint ? `${id}-${option.value}-hint` : undefined}>
              <RadixRadioGroup.Indicator className="ui-radio-indicator" />
            </RadixRadioGroup.Item>
            <label htmlFor={`${id}-${option.value}`}>{option.label}</label>
            {option.hint ? <small id={`${id}-${option.value}-hint`} className="ui-field-hint">{option.hint}</small> : null}
          </div>
        ))}
      </RadixRadioGroup.Root>
    </div>
  );
}

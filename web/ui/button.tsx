import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import type { IconDefinition } from '@fortawesome/free-solid-svg-icons';
import { Icon } from './icon.tsx';
import { Tooltip } from './tooltip.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Work is under way: a spinner over the label (which keeps the button's width), aria-busy, no second click. */
  loading?: boolean;
  /** An icon before the label. */
  icon?: IconDefinition;
}

export function buttonClass(variant: ButtonVariant = 'secondary', size: ButtonSize = 'md', extra?: string): string {
  return ['ui-button', `ui-button-${variant}`, `ui-button-${size}`, extra].filter(Boolean).join(' ');
}

/**
 * The app's button. A ref and every prop reach the <button>, so Radix triggers (`asChild`) can use it. `type` is
 * "button" unless said otherwise: a button in a form submits only when it says so.
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button({ variant, size, loading = false, icon, className, children, type = 'button', disabled, onClick, ...rest }, ref) {
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClass(variant, size, className)}
      aria-busy={loading || undefined}
      // A busy button stays focusable (aria-disabled, not disabled), so focus is not lost while the work runs.
      aria-disabled={loading || undefined}
      disabled={disabled}
      onClick={loading ? (event) => event.preventDefault() : onClick}
      {...rest}
    >
      <span className="ui-button-label">
        {icon ? <Icon icon={icon} /> : null}
        {children}
      </span>
      {loading ? <span className="ui-spinner" aria-hidden="true" /> : null}
    </button>
  );
});

export interface IconButtonProps extends Omit<ButtonProps, 'children' | 'icon' | 'aria-label'> {
  icon: IconDefinition;
  /** The button's accessible name, shown as its tooltip too. */
  label: string;
  /** Something beside the icon (a count), read after the label. */
  extra?: ReactNode;
}

/** A button drawn as an icon: its name is its label, shown in a tooltip on hover and focus. */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton({ icon, label, extra, variant = 'ghost', className, ...rest }, ref) {
  return (
    <Tooltip content={label}>
      <Button ref={ref} variant={variant} className={className ? `ui-icon-button ${className}` : 'ui-icon-button'} aria-label={label} {...rest}>
        <Icon icon={icon} />
        {extra}
      </Button>
    </Tooltip>
  );
});

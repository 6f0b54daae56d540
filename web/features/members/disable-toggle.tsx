import { Button } from '../../ui/button.tsx';
import { AlertDialog } from '../../ui/dialogs.tsx';

/**
 * Disabling a member (the members list and a member's page): disabling confirms, since it ends their sessions;
 * enabling them again does not.
 */
export function DisableToggle({ name, disabled, busy, error, enable, disable }: { name: string; disabled: boolean; busy: boolean; error: unknown; enable: () => void; disable: () => Promise<unknown> }) {
  if (disabled) {
    return (
      <Button size="sm" loading={busy} onClick={enable}>
        Enable {name}
      </Button>
    );
  }
  return (
    <AlertDialog
      title={`Disable ${name}?`}
      description="They stay a member, with their role and teams, but cannot open the organization's content until you enable them again. Their sessions end now."
      confirm={`Disable ${name}`}
      error={error}
      onConfirm={disable}
      trigger={
        <Button variant="danger" size="sm">
          Disable {name}
        </Button>
      }
    />
  );
}

import { Dialog } from '../../ui/dialogs.tsx';
import { keyName, SHORTCUT_GROUPS } from './shortcuts.ts';

const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The keyboard shortcuts of the editor (Ctrl/Cmd-/), grouped, on the kit's Dialog. */
export function ShortcutHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog title="Keyboard shortcuts" open={open} onOpenChange={onOpenChange} size="md" className="qe-shortcuts">
      {SHORTCUT_GROUPS.map((group) => (
        <section key={group.title} aria-labelledby={`shortcuts-${group.title}`}>
          <h3 id={`shortcuts-${group.title}`}>{group.title}</h3>
          <dl>
            {group.shortcuts.map((shortcut) => (
              <div key={shortcut.label} className="qe-shortcut">
                <dt>{shortcut.label}</dt>
                <dd>
                  {shortcut.typed
                    ? shortcut.keys.map((text, i) => (
                        <span key={text}>
                          {i > 0 ? ' ' : null}
                          <kbd>{text}</kbd>
                        </span>
                      ))
                    : shortcut.keys.map((key, i) => (
                        <span key={key}>
                          {i > 0 ? ' + ' : null}
                          <kbd>{keyName(key, mac)}</kbd>
                        </span>
                      ))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}

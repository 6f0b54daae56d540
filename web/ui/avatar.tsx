/*
 * How a person looks where the app shows who is there (the editor's carets and avatars, the change request's
 * "in the editor now"): their initials on their colour, the same colour everywhere, chosen by their id (the server
 * gives the editors' awareness states the same one).
 */

import { Avatar as RadixAvatar } from 'radix-ui';

export { personColor } from '../../src/features/collaboration/collaborator.ts';

/** Initials of a name for an avatar: the first letters of its first two words. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}

/**
 * A person's picture, or their initials on their colour while it loads or when they have none. The name is the
 * image's text alternative, or `label` when it says more ("Ada is editing"); `decorative` when the name is written
 * beside it.
 */
export function Avatar({ name, label, src, color, size = 'md', decorative = false }: { name: string; label?: string; src?: string | null; color?: string; size?: 'sm' | 'md' | 'lg'; decorative?: boolean }) {
  return (
    <RadixAvatar.Root className={`ui-avatar ui-avatar-${size}`} style={color ? { background: color } : undefined} role={decorative ? undefined : 'img'} aria-label={decorative ? undefined : (label ?? name)} aria-hidden={decorative || undefined}>
      {src ? <RadixAvatar.Image className="ui-avatar-image" src={src} alt="" /> : null}
      <RadixAvatar.Fallback className="ui-avatar-fallback" delayMs={src ? 400 : 0}>
        {initials(name)}
      </RadixAvatar.Fallback>
    </RadixAvatar.Root>
  );
}

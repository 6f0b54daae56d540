import type { ShareTarget } from './share-dialog.tsx';
import type { DefaultLevel } from './access-reasons.ts';

/** What the share dialog needs of a space or collection (`defaultLevel` is Quire's, beside the official fields). */
export function shareTargetOf(kind: ShareTarget['kind'], item: { id: string; title: string; organization: string; parent?: string }): ShareTarget {
  const defaultLevel = (item as { defaultLevel?: DefaultLevel }).defaultLevel;
  return { kind, id: item.id, title: item.title, orgId: item.organization, defaultLevel: defaultLevel === undefined ? 'inherit' : defaultLevel, parent: item.parent ?? null };
}

/** The official SiteVisibility values, in the order the screens offer them, with what each means to a visitor. */
export const VISIBILITIES = [
  { value: 'public', label: 'Public', hint: 'Anyone can read it, and search engines index it.' },
  { value: 'unlisted', label: 'Unlisted', hint: 'Anyone with its URL can read it; search engines do not index it.' },
  { value: 'share-link', label: 'Share link', hint: 'Only visitors who open one of its active share links (and members).' },
  { value: 'visitor-auth', label: 'Visitor authentication', hint: 'Only visitors your own sign-in sends with a signed token (and members).' },
] as const;

export type Visibility = (typeof VISIBILITIES)[number]['value'];

export function visibilityLabel(value: string): string {
  return VISIBILITIES.find((v) => v.value === value)?.label ?? value;
}

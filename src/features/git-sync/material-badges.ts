/*
 * Material for MkDocs documents its own options with badges written as HTML comments (`<!-- md:version 9.2.0 -->`,
 * `<!-- md:default none -->`, `#### <!-- md:setting config.enabled -->`), which a hook of its site
 * (`hooks: [shortcodes.py]` in mkdocs.yml) turns into a small box of an icon, whose title says what the box is, and
 * the value. Without the hook a comment shows nothing; with it, it says something ("Prior to version 7.0.0"), so
 * an import of a site that runs the hook writes each badge as the words it shows: its title and its value. The
 * badge's look and its link (to the changelog, to the page of conventions) are not carried over.
 */

export const BADGE = /<!--[ \t]*md:(\w+)(.*?)[ \t]*-->/gi;

const FLAGS: Record<string, string> = {
  experimental: 'Experimental', required: 'Required value', customization: 'Customization', metadata: 'Metadata property', multiple: 'Multiple instances',
};

/** A badge's words (in italics, as a box of its own is set apart), or undefined for one the hook does not know. */
export function badgeText(kind: string, args: string): string | undefined {
  const value = args.trim();
  const badge = (words: string) => `_${words}_`;
  switch (kind.toLowerCase()) {
    case 'version':
      if (!value) return badge('Minimum version');
      return badge(value.startsWith('insiders-') ? `Insiders ${value.slice('insiders-'.length)}` : `Version ${value}`);
    case 'sponsors':
      return badge('Sponsors only');
    case 'flag':
      return FLAGS[value.split(' ')[0]!] && badge(FLAGS[value.split(' ')[0]!]!);
    case 'default':
      if (value === 'none') return badge('Default value is empty');
      if (value === 'computed') return badge('Default value is computed');
      return value ? `_Default:_ ${value}` : badge('Default value');
    case 'feature':
      return value ? `_Optional feature:_ ${value}` : badge('Optional feature');
    case 'plugin':
      return value ? `_Plugin:_ ${value}` : badge('Plugin');
    case 'extension':
      return value ? `_Markdown extension:_ ${value}` : badge('Markdown extension');
    case 'utility':
      return value ? `_Third-party utility:_ ${value}` : badge('Third-party utility');
    case 'example':
      return `[View example](https://mkdocs-material.github.io/examples/${value}/) · [Download example files](https://mkdocs-material.github.io/examples/${value}.zip)`;
    case 'demo':
      return `[Demo repository: ${value}](https://github.com/mkdocs-material/${value})`;
    case 'option': {
      // The hook writes the option's name as a link to itself; the anchor on a paragraph has no GitBook form.
      const name = value.split(/[.:]/).pop()!;
      return `\`${name}\``;
    }
    default:
      return undefined;
  }
}

/**
 * `#### <!-- md:setting config.enabled -->`: a heading of the setting's name, anchored at its full name, and the
 * link reference the hook defines with it (`[config.enabled]` elsewhere on the page links there).
 */
export function settingHeading(line: string): string[] | undefined {
  const m = /^(#{1,6})[ \t]+<!--[ \t]*md:setting[ \t]+([\w.*-]+)[ \t]*-->[ \t]*$/.exec(line);
  if (!m) return undefined;
  const name = m[2]!.split(/[.*]/).pop()!;
  return [`${m[1]} \`${name}\` { #${m[2]} }`, '', `[${m[2]}]: #${m[2]}`];
}

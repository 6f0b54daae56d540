import { Type, type Static, type TSchema } from 'typebox';
import { isEmoji } from '../../platform/emoji.ts';
import { strictBodyValidators } from '../../platform/validation.ts';
import { checkCondition, MAX_CONDITION_LENGTH } from '../adaptive/conditions.ts';

/**
 * A site's customization: the official `SiteCustomizationSettings` of @gitbook/api 0.143.2 and the schemas it
 * references, transcribed one for one (names, enums, patterns, lengths, required fields, deprecated fields).
 * It is the body of PUT SITE/customization and what GET answers, so the official client's types fit it.
 * Two departures, both so that the app's Ajv settings (`removeAdditional`, `oneOf` read as `anyOf`) judge it as
 * the official spec does; see `Favicon` and `checkCustomization`.
 */

const Color = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' });
const Url = Type.String({ format: 'uri', maxLength: 2048 });
const Emoji = Type.String({ maxLength: 50, format: 'emoji', description: 'Unicode codepoint or character of the emoji' });
const Expression = Type.String({ minLength: 0, maxLength: MAX_CONDITION_LENGTH, description: 'Expression to evaluate' });

export const SiteTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site' });
export const ThemedColor = Type.Object({ light: Color, dark: Color });
export const ThemedUrl = Type.Object({ light: Url, dark: Url });

const Theme = Type.Enum(['clean', 'muted', 'bold', 'gradient']);
const Tint = Type.Object({ color: ThemedColor });
const Corners = Type.Enum(['straight', 'rounded', 'circular']);
const Depth = Type.Enum(['subtle', 'flat']);
const LinksStyle = Type.Enum(['default', 'accent']);
const DefaultFont = Type.Enum([
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
]);
const DefaultMonospaceFont = Type.Enum(['FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata']);
const FontSource = Type.Object({ url: Url, format: Type.Optional(Type.Enum(['woff2', 'woff'])) });
const FontFace = Type.Object({ weight: Type.Integer({ minimum: 1, maximum: 1000 }), sources: Type.Array(FontSource, { minItems: 1 }) });
const FontDefinition = Type.Object({
  id: Type.String(),
  custom: Type.Boolean(),
  fontFamily: Type.String({ minLength: 1, maxLength: 50 }),
  fontFaces: Type.Array(FontFace, { minItems: 1 }),
});
const Background = Type.Enum(['plain', 'match'], { deprecated: true });
const IconsStyle = Type.Enum(['regular', 'solid', 'duotone', 'light', 'thin']);
const SidebarBackground = Type.Enum(['default', 'filled']);
const SidebarList = Type.Enum(['default', 'pill', 'line']);
const SearchStyle = Type.Enum(['prominent', 'subtle']);
const Locale = Type.Enum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'], { deprecated: true });

/**
 * The official "no favicon" branch is `{}` with `additionalProperties: false`. The app's Ajv removes additional
 * properties instead of refusing them, and tries anyOf branches in order, so `{ icon: <bad> }` would fail the
 * first branch and then be emptied into `{}` by the last. `maxProperties: 0` says the same without that trap.
 */
const Favicon = Type.Union([Type.Object({ icon: ThemedUrl }), Type.Object({ emoji: Emoji }), Type.Object({}, { maxProperties: 0 })]);

const ContentRef = Type.Union([
  Type.Object({ kind: Type.Literal('file'), file: Type.String() }),
  Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
  Type.Object({ kind: Type.Literal('page'), page: Type.String(), space: Type.Optional(Type.String()) }),
  Type.Object({ kind: Type.Literal('anchor'), anchor: Type.String(), space: Type.Optional(Type.String()), page: Type.Optional(Type.String()) }),
  Type.Object({ kind: Type.Literal('user'), user: Type.String() }),
  Type.Object({ kind: Type.Literal('collection'), collection: Type.String() }),
  Type.Object({ kind: Type.Literal('space'), space: Type.String() }),
  Type.Object({ kind: Type.Literal('reusable-content'), reusableContent: Type.String(), space: Type.Optional(Type.String()) }),
  Type.Object({ kind: Type.Literal('openapi'), spec: Type.String() }),
]);
const ContentLink = Type.Object({ title: Type.String({ maxLength: 64 }), to: ContentRef });
const HeaderItem = Type.Object({
  title: Type.String(),
  style: Type.Optional(Type.Enum(['link', 'button-primary', 'button-secondary'])),
  to: Type.Union([ContentRef, Type.Null()]),
  links: Type.Array(ContentLink),
  condition: Type.Optional(Expression),
});
const FooterGroup = Type.Object({ title: Type.String(), links: Type.Array(ContentLink) });
const Announcement = Type.Object({
  enabled: Type.Boolean(),
  message: Type.String({ minLength: 2, maxLength: 128 }),
  link: Type.Optional(ContentLink),
  style: Type.Enum(['info', 'warning', 'danger', 'success']),
});
const enabled = () => Type.Object({ enabled: Type.Boolean() });

/** The code themes of @gitbook/api 0.202.0 (shiki's), for code blocks and OpenAPI blocks, per colour mode. */
const CODE_THEMES = ["default-light", "default-dark", "monochrome-light", "monochrome-dark", "andromeeda", "aurora-x", "ayu-dark", "catppuccin-frappe", "catppuccin-latte", "catppuccin-macchiato", "catppuccin-mocha", "dark-plus", "dracula", "dracula-soft", "everforest-dark", "everforest-light", "github-dark", "github-dark-default", "github-dark-dimmed", "github-dark-high-contrast", "github-light", "github-light-default", "github-light-high-contrast", "gruvbox-dark-hard", "gruvbox-dark-medium", "gruvbox-dark-soft", "gruvbox-light-hard", "gruvbox-light-medium", "gruvbox-light-soft", "houston", "kanagawa-dragon", "kanagawa-lotus", "kanagawa-wave", "laserwave", "light-plus", "material-theme", "material-theme-darker", "material-theme-lighter", "material-theme-ocean", "material-theme-palenight", "min-dark", "min-light", "monokai", "night-owl", "nord", "one-dark-pro", "one-light", "plastic", "poimandres", "red", "rose-pine", "rose-pine-dawn", "rose-pine-moon", "slack-dark", "slack-ochin", "snazzy-light", "solarized-dark", "solarized-light", "synthwave-84", "tokyo-night", "vesper", "vitesse-black", "vitesse-dark", "vitesse-light"] as const;
const ThemedCodeTheme = Type.Object({ light: Type.Enum([...CODE_THEMES]), dark: Type.Enum([...CODE_THEMES]) });
const SocialAccount = Type.Object({
  platform: Type.Enum(['twitter', 'instagram', 'facebook', 'linkedin', 'github', 'discord', 'slack', 'youtube', 'tiktok', 'reddit', 'bluesky', 'mastodon', 'threads', 'medium']),
  handle: Type.String({ minLength: 1, maxLength: 128, description: 'Without a prefix such as @' }),
  display: Type.Object({ footer: Type.Boolean(), header: Type.Boolean() }),
});
const PAGE_ACTIONS = ['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'] as const;

export const Customization = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    styling: Type.Object({
      theme: Theme,
      primaryColor: ThemedColor,
      tint: Type.Optional(Tint),
      infoColor: ThemedColor,
      successColor: ThemedColor,
      warningColor: ThemedColor,
      dangerColor: ThemedColor,
      corners: Corners,
      depth: Depth,
      links: LinksStyle,
      font: Type.Union([DefaultFont, FontDefinition]),
      monospaceFont: Type.Union([DefaultMonospaceFont, FontDefinition]),
      background: Background,
      icons: IconsStyle,
      sidebar: Type.Object({ background: SidebarBackground, list: SidebarList }),
      search: SearchStyle,
      // Newer than the pinned 0.143.2: optional in a body, always answered (customizationOf fills it).
      codeTheme: Type.Optional(Type.Object({ default: ThemedCodeTheme, openapi: ThemedCodeTheme })),
    }),
    internationalization: Type.Object({ locale: Locale }, { deprecated: true }),
    favicon: Favicon,
    header: Type.Object({
      preset: Type.Enum(['default', 'bold', 'contrast', 'custom', 'none'], { deprecated: true }),
      logo: Type.Optional(ThemedUrl),
      backgroundColor: Type.Optional(Type.Object(ThemedColor.properties, { deprecated: true })),
      linkColor: Type.Optional(Type.Object(ThemedColor.properties, { deprecated: true })),
      links: Type.Array(HeaderItem),
    }),
    footer: Type.Object({
      logo: Type.Optional(ThemedUrl),
      groups: Type.Array(FooterGroup),
      copyright: Type.Optional(Type.String({ maxLength: 300 })),
    }),
    announcement: Type.Optional(Announcement),
    themes: Type.Object({ default: Type.Enum(['light', 'dark']), toggeable: Type.Boolean() }),
    pdf: enabled(),
    feedback: enabled(),
    ai: Type.Object({ mode: Type.Enum(['none', 'search', 'assistant']) }),
    advancedCustomization: enabled(),
    git: Type.Object({ showEditLink: Type.Boolean() }),
    pageActions: Type.Object({
      externalAI: Type.Boolean(),
      markdown: Type.Boolean(),
      mcp: Type.Boolean(),
      items: Type.Optional(Type.Array(Type.Enum([...PAGE_ACTIONS]), { uniqueItems: true, description: 'The page menu\'s actions in order (0.202.0); answered from the flags when not set' })),
    }),
    externalLinks: Type.Object({ target: Type.Enum(['self', 'blank']) }),
    pagination: enabled(),
    trademark: enabled(),
    privacyPolicy: Type.Object({ url: Type.Optional(Url) }),
    socialPreview: Type.Object({ url: Type.Optional(Url) }),
    insights: Type.Object({ trackingCookie: Type.Boolean({ default: true }) }),
    socialAccounts: Type.Optional(Type.Array(SocialAccount, { maxItems: 10, description: 'The social accounts of the site (0.202.0)' })),
  },
  { description: 'SiteCustomizationSettings' },
);

export type CustomizationValue = Static<typeof Customization>;

type Validate = ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }[] | null };
type CompileRoute = (route: { schema: TSchema; httpPart: string }) => Validate;

/** The very validator a request body gets (strict types, the app's formats), so both judge alike. */
const validate = (strictBodyValidators() as unknown as (external: object, options: object) => CompileRoute)(
  {},
  { customOptions: { formats: { emoji: isEmoji } } },
)({ schema: Customization, httpPart: 'body' });

/**
 * Whether `value` is a complete customization; the message names the first bad field
 * (`customization/styling/primaryColor/light: must match pattern ...`). The value is not changed: the check
 * runs on a copy, since the app's Ajv fills defaults in as it validates. Header links' conditions must also
 * be conditions this server can evaluate.
 */
export function checkCustomization(value: unknown, field = 'customization'): { ok: true } | { ok: false; message: string } {
  const copy = structuredCloneOrUndefined(value);
  if (copy === undefined || !validate(copy)) {
    const first = validate.errors?.[0];
    if (copy === undefined || !first) return { ok: false, message: `${field}: must be a JSON object` };
    const missing = first.keyword === 'required' ? `/${String(first.params.missingProperty)}` : '';
    const message = first.keyword === 'required' ? 'is required' : (first.message ?? 'is invalid');
    return { ok: false, message: `${field}${first.instancePath}${missing}: ${message}` };
  }
  const settings = copy as CustomizationValue;
  // The official favicon is a oneOf: an icon or an emoji, not both.
  if ('icon' in settings.favicon && 'emoji' in settings.favicon) {
    return { ok: false, message: `${field}/favicon: must be either an icon or an emoji, not both` };
  }
  for (const [index, link] of settings.header.links.entries()) {
    if (link.condition === undefined || link.condition === '') continue;
    const result = checkCondition(link.condition, `${field}/header/links/${index}/condition`);
    if (!result.ok) return result;
  }
  return { ok: true };
}

function structuredCloneOrUndefined(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  try {
    return structuredClone(value);
  } catch {
    return undefined;
  }
}

const GRAY = '#787878';

/**
 * What a new site starts with: GitBook's defaults for a new site (clean theme, Inter, blue primary color, light
 * mode with a toggle, search on, PDF export and pagination on, feedback off), titled after the site when its
 * title fits the customization's 2 to 128 characters.
 */
export function defaultCustomization(site: { title: string }): CustomizationValue {
  const color = (hex: string) => ({ light: hex, dark: hex });
  const title = site.title.trim();
  return {
    ...(title.length >= 2 && title.length <= 128 ? { title } : {}),
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB'),
      infoColor: color(GRAY),
      successColor: color('#00C950'),
      warningColor: color('#FE9A00'),
      dangerColor: color('#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'search' },
    advancedCustomization: { enabled: true },
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
    socialAccounts: [],
  };
}

/**
 * The fields @gitbook/api 0.202.0 requires that a customization stored before them lacks (GitBook's renderer reads
 * `socialAccounts` unguarded): filled with what the older fields mean.
 */
export function withCurrentFields(customization: CustomizationValue): CustomizationValue {
  const { styling, pageActions } = customization;
  const code = { light: 'default-light' as const, dark: 'default-dark' as const };
  const items = pageActions.items ?? [...(pageActions.markdown ? (['markdown'] as const) : []), ...(pageActions.externalAI ? (['external-ai'] as const) : []), ...(pageActions.mcp ? (['mcp'] as const) : [])];
  return {
    ...customization,
    styling: { ...styling, codeTheme: styling.codeTheme ?? { default: code, openapi: code } },
    pageActions: { ...pageActions, items },
    socialAccounts: customization.socialAccounts ?? [],
  };
}

import type { ComponentChild, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { assetPath } from './assets.ts';
import { emojiCharacter } from './emoji.ts';
import { ICONS } from './icons.tsx';
import { loadIcons } from './icon-set.tsx';
import { Announcement, Cover, Footer, Header, PageIcon, SearchDialog } from './page-chrome.tsx';
import { Breadcrumbs, Pagination, Tree, Variants } from './page-navigation.tsx';
import type { NavItem, ReaderPageModel } from './page-model.ts';
import type { RenderedHtml } from './render-document.tsx';
import { safeImageUrl, safeLinkUrl } from '../content/document/safe-url.ts';

export type { NavItem, ReaderLink, ReaderPageModel } from './page-model.ts';

/** A full reader page: `<!doctype html>` and the chrome around the rendered document. */
export async function renderPage(model: ReaderPageModel): Promise<string> {
  if (namesIcons(model)) await loadIcons();
  return `<!doctype html>${renderToString(<Page model={model} />)}`;
}

function namesIcons(model: ReaderPageModel): boolean {
  const inTree = (items: NavItem[]): boolean =>
    items.some((item) => (item.kind === 'page' && item.icon) || (item.kind !== 'link' && inTree(item.children ?? [])));
  return Boolean(model.page.icon || model.sections?.some((s) => s.icon) || inTree(model.tree));
}

/** The "page not found" page, in the site's chrome (no sidebar: the visitor may not be where they think). */
export function notFoundPage(model: Omit<ReaderPageModel, 'page' | 'breadcrumbs' | 'seo'> & { seo?: Partial<ReaderPageModel['seo']> }): Promise<string> {
  return renderPage({
    ...model,
    breadcrumbs: [],
    previous: undefined,
    next: undefined,
    seo: { canonical: model.seo?.canonical ?? model.site.href, noindex: true },
    page: {
      title: 'Page not found',
      description: 'The page you are looking for does not exist or has moved.',
      html: renderToString(
        <p class="not-found">
          <a href={safeLinkUrl(model.site.href) ?? '/'}>Go to the home page of {model.site.title}</a>
        </p>,
      ) as RenderedHtml,
      outline: [],
    },
  });
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A CSS string of any text: every character but letters, digits, space, `-`, `_`, `.` and `/` escaped (nothing can close the rule or the element). */
function cssString(text: string): string {
  return `"${Array.from(text, (c) => (/[A-Za-z0-9 _./-]/.test(c) ? c : `\\${c.codePointAt(0)!.toString(16)} `)).join('')}"`;
}

/**
 * The `@font-face` rules of a custom font and the reader's text font set to it, the system fonts after it while
 * its files load. Paths are this server's `/files/<hash>/<name>` (page-model.ts); each is escaped all the same.
 */
export function customFontCss(font: NonNullable<ReaderPageModel['customization']['font']>): string {
  const family = cssString(font.family);
  const faces = font.faces.map(
    (face) => `@font-face{font-family:${family};font-weight:${Math.trunc(face.weight)};font-display:swap;src:url(${cssString(face.path)}) format(${cssString(face.format)})}`,
  );
  return `${faces.join('')}:root{--font:${family},system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}`;
}

function Page({ model }: { model: ReaderPageModel }): VNode {
  const { site, page, customization, seo } = model;
  const title = page.title === site.title ? site.title : `${page.title} | ${site.title}`;
  const description = page.description?.trim() || undefined;
  const theme = customization.theme;
  const primary = customization.primaryColor;
  // Colours go into a style attribute: only plain hex values, so nothing else can be injected there.
  const style =
    primary && HEX_COLOR.test(primary.light) && HEX_COLOR.test(primary.dark) ? `--primary-light:${primary.light};--primary-dark:${primary.dark}` : undefined;
  const canonical = safeLinkUrl(seo.canonical) ?? undefined;
  const image = seo.image ? (safeImageUrl(seo.image) ?? undefined) : undefined;
  return (
    <html
      lang={model.lang ?? 'en'}
      data-theme={theme?.default}
      data-theme-toggle={theme?.toggeable === false ? 'off' : 'on'}
      data-corners={customization.corners ?? 'rounded'}
      // The section tabs make the sticky header taller: the stylesheet moves what sticks below it.
      class={model.sections && model.sections.length > 1 ? 'with-sections' : undefined}
      style={style}
    >
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {description ? <meta name="description" content={description} /> : null}
        {canonical ? <link rel="canonical" href={canonical} /> : null}
        {seo.noindex ? <meta name="robots" content="noindex, nofollow" /> : null}
        <meta name="color-scheme" content={theme?.default && theme.toggeable === false ? theme.default : 'light dark'} />
        <meta property="og:type" content="article" />
        <meta property="og:site_name" content={site.title} />
        <meta property="og:title" content={page.title} />
        {description ? <meta property="og:description" content={description} /> : null}
        {canonical ? <meta property="og:url" content={canonical} /> : null}
        {image ? <meta property="og:image" content={image} /> : null}
        <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
        <meta name="twitter:title" content={page.title} />
        {description ? <meta name="twitter:description" content={description} /> : null}
        {image ? <meta name="twitter:image" content={image} /> : null}
        <Favicon favicon={site.favicon} />
        <link rel="stylesheet" href={assetPath('css')} />
        {customization.font ? <style dangerouslySetInnerHTML={{ __html: customFontCss(customization.font) }} /> : null}
        {/* Not deferred: it sets the saved theme before the first paint, then waits for the DOM itself. */}
        <script src={assetPath('js')} />
        <noscript>
          <style>{'.tab-panel[hidden]{display:block}.tab-list{display:none}'}</style>
        </noscript>
      </head>
      <body data-search-url={model.searchUrl ? (safeLinkUrl(model.searchUrl) ?? undefined) : undefined} data-ask-url={model.askUrl ? (safeLinkUrl(model.askUrl) ?? undefined) : undefined}>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        {model.announcement ? <Announcement announcement={model.announcement} /> : null}
        <Header model={model} />
        <div class="layout">
          <aside id="sidebar" class="sidebar" aria-label="Site navigation">
            {model.variants && model.variants.length > 1 ? <Variants variants={model.variants} /> : null}
            {model.tree.length > 0 ? (
              <nav aria-label="Pages" class="tree-nav">
                <Tree items={model.tree} depth={0} />
              </nav>
            ) : null}
          </aside>
          <main id="main" tabindex={-1}>
            <article class="page">
              {model.breadcrumbs.length > 0 ? <Breadcrumbs links={model.breadcrumbs} /> : null}
              {page.cover ? <Cover cover={page.cover} /> : null}
              <header class="page-header">
                <h1>
                  <PageIcon emoji={page.emoji} icon={page.icon} className="page-emoji" />
                  {page.title}
                </h1>
                {description ? <p class="page-description">{description}</p> : null}
              </header>
              <div class="document" dangerouslySetInnerHTML={{ __html: page.html }} />
              {model.pdf ? (
                <p class="page-actions">
                  {ICONS.download}
                  <a href={safeLinkUrl(model.pdf.page) ?? undefined}>Download this page as PDF</a>
                  <span aria-hidden="true">·</span>
                  <a href={safeLinkUrl(model.pdf.all) ?? undefined}>All pages as PDF</a>
                </p>
              ) : null}
            </article>
            {model.previous || model.next ? <Pagination previous={model.previous} next={model.next} /> : null}
          </main>
          {page.outline.length > 0 ? (
            <aside class="outline" aria-labelledby="outline-title">
              <p id="outline-title" class="outline-title">
                On this page
              </p>
              <nav aria-labelledby="outline-title">
                <ul>
                  {page.outline
                    .filter((item) => item.level <= 2)
                    .map((item) => (
                      <li class={`outline-level-${item.level}`}>
                        <a href={`#${item.id}`}>{item.title}</a>
                      </li>
                    ))}
                </ul>
              </nav>
            </aside>
          ) : null}
        </div>
        <Footer model={model} />
        {model.searchUrl ? <SearchDialog ask={model.askUrl !== undefined} /> : null}
      </body>
    </html>
  );
}

function Favicon({ favicon }: { favicon: ReaderPageModel['site']['favicon'] }): ComponentChild {
  if (favicon && 'emoji' in favicon) {
    const emoji = emojiCharacter(favicon.emoji);
    if (!emoji) return null;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${emoji}</text></svg>`;
    return <link rel="icon" href={`data:image/svg+xml,${encodeURIComponent(svg)}`} />;
  }
  if (favicon && 'icon' in favicon) {
    const light = safeImageUrl(favicon.icon.light);
    const dark = favicon.icon.dark ? safeImageUrl(favicon.icon.dark) : null;
    if (!light) return null;
    return (
      <>
        <link rel="icon" href={light} media={dark ? '(prefers-color-scheme: light)' : undefined} />
        {dark ? <link rel="icon" href={dark} media="(prefers-color-scheme: dark)" /> : null}
      </>
    );
  }
  return null;
}

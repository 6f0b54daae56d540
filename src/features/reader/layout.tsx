import type { ComponentChild, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { assetPath } from './assets.ts';
import { emojiCharacter } from './emoji.ts';
import { loadIcons, namedIcon } from './icon-set.tsx';
import { ICONS } from './icons.tsx';
import type { NavItem, ReaderLink, ReaderPageModel, ThemedUrl } from './page-model.ts';
import type { RenderedHtml } from './render-document.tsx';
import { isExternalUrl, safeImageUrl, safeLinkUrl } from './safe-url.ts';

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
        {/* Not deferred: it sets the saved theme before the first paint, then waits for the DOM itself. */}
        <script src={assetPath('js')} />
        <noscript>
          <style>{'.tab-panel[hidden]{display:block}.tab-list{display:none}'}</style>
        </noscript>
      </head>
      <body data-search-url={model.searchUrl ? (safeLinkUrl(model.searchUrl) ?? undefined) : undefined}>
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
        {model.searchUrl ? <SearchDialog /> : null}
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

interface LinkProps { link: ReaderLink; className?: string; current?: boolean; externalBlank?: boolean; icon?: ComponentChild }

function Link({ link, className, current, externalBlank, icon }: LinkProps): ComponentChild {
  const href = safeLinkUrl(link.href);
  if (!href) return <span class={className}>{icon}{link.title}</span>;
  const blank = externalBlank === true && isExternalUrl(href);
  return (
    <a href={href} class={className} aria-current={current ? 'page' : undefined} target={blank ? '_blank' : undefined} rel={blank ? 'noopener noreferrer' : undefined}>
      {icon}
      {link.title}
      {blank ? <span class="sr-only"> (opens in a new tab)</span> : null}
    </a>
  );
}

/** A page's emoji, else its icon; decorative (the title follows). */
function PageIcon({ emoji, icon, className }: { emoji?: string; icon?: string; className: string }): ComponentChild {
  const character = emojiCharacter(emoji);
  if (character) {
    return (
      <span class={className} aria-hidden="true">
        {character}
      </span>
    );
  }
  const svg = namedIcon(icon);
  return svg ? (
    <span class={className} aria-hidden="true">
      {svg}
    </span>
  ) : null;
}

function ThemedImage({ url, alt, className }: { url: ThemedUrl; alt: string; className: string }): ComponentChild {
  const light = safeImageUrl(url.light);
  const dark = url.dark ? safeImageUrl(url.dark) : null;
  if (!light) return null;
  if (!dark || dark === light) return <img class={className} src={light} alt={alt} />;
  return (
    <>
      <img class={`${className} only-light`} src={light} alt={alt} />
      <img class={`${className} only-dark`} src={dark} alt={alt} />
    </>
  );
}

function Announcement({ announcement }: { announcement: NonNullable<ReaderPageModel['announcement']> }): VNode {
  const style = ['info', 'warning', 'danger', 'success'].includes(announcement.style) ? announcement.style : 'info';
  return (
    <div class={`announcement announcement-${style}`} role="region" aria-label="Announcement">
      <p>
        {announcement.message}
        {announcement.link ? (
          <>
            {' '}
            <Link link={announcement.link} className="announcement-link" />
          </>
        ) : null}
      </p>
    </div>
  );
}

function Header({ model }: { model: ReaderPageModel }): VNode {
  const { site, customization } = model;
  const blank = customization.externalLinks === 'blank';
  return (
    <header class="site-header">
      <div class="header-row">
        <button type="button" class="icon-button sidebar-toggle" aria-controls="sidebar" aria-expanded="false" aria-label="Open navigation">
          {ICONS.menu}
        </button>
        <a class="site-logo" href={safeLinkUrl(site.href) ?? '/'}>
          {site.logo ? <ThemedImage url={site.logo} alt={site.title} className="logo" /> : <span class="site-title">{site.title}</span>}
        </a>
        {model.searchUrl ? (
          <button type="button" class="search-button" data-open-search aria-haspopup="dialog" aria-keyshortcuts="Control+K Meta+K">
            {ICONS.search}
            <span class="search-label">Search…</span>
            <kbd class="search-shortcut">Ctrl K</kbd>
          </button>
        ) : null}
        <nav class="header-links" aria-label="Site links">
          <ul>
            {model.header.links.map((link) => (
              <li>
                <Link link={link} className={link.style && link.style !== 'link' ? `button ${link.style}` : 'header-link'} externalBlank={blank} />
              </li>
            ))}
          </ul>
        </nav>
        {customization.theme?.toggeable === false ? null : (
          <button type="button" class="icon-button theme-toggle" data-toggle-theme aria-label="Switch between light and dark theme">
            <span class="only-light">{ICONS.moon}</span>
            <span class="only-dark">{ICONS.sun}</span>
          </button>
        )}
      </div>
      {model.sections && model.sections.length > 1 ? (
        <nav class="sections" aria-label="Sections">
          <ul>
            {model.sections.map((section) => (
              <li>
                <Link link={section} className={section.current ? 'section current' : 'section'} current={section.current} icon={namedIcon(section.icon)} />
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}

/** A disclosure of links rather than a <select>: it works without script and each variant is a real URL. */
function Variants({ variants }: { variants: NonNullable<ReaderPageModel['variants']> }): VNode {
  const current = variants.find((v) => v.current) ?? variants[0]!;
  return (
    <details class="variants">
      <summary>
        <span class="sr-only">Variant: </span>
        {current.title}
      </summary>
      <ul>
        {variants.map((variant) => (
          <li>
            <Link link={variant} current={variant.current} />
          </li>
        ))}
      </ul>
    </details>
  );
}

// The tree is bounded like documents are: deeper levels are not shown.
const MAX_TREE_DEPTH = 12;

function containsCurrent(item: NavItem): boolean {
  if (item.kind === 'link') return false;
  if (item.kind === 'page' && item.current) return true;
  return (item.children ?? []).some(containsCurrent);
}

function Tree({ items, depth }: { items: NavItem[]; depth: number }): VNode {
  return (
    <ul class={depth === 0 ? 'tree' : 'tree-children'}>
      {items.map((item) => {
        if (item.kind === 'group') {
          return (
            <li class="tree-group">
              <p class="tree-group-title">{item.title}</p>
              {depth < MAX_TREE_DEPTH ? <Tree items={item.children} depth={depth + 1} /> : null}
            </li>
          );
        }
        const label = (
          <>
            {item.kind === 'page' ? <PageIcon emoji={item.emoji} icon={item.icon} className="tree-emoji" /> : null}
            {item.title}
            {item.kind === 'link' ? <span class="tree-external">{ICONS.external}</span> : null}
          </>
        );
        const href = safeLinkUrl(item.href);
        const current = item.kind === 'page' && item.current === true;
        const link = href ? (
          <a href={href} class={current ? 'tree-link current' : 'tree-link'} aria-current={current ? 'page' : undefined}>
            {label}
          </a>
        ) : (
          <span class="tree-link">{label}</span>
        );
        const children = item.kind === 'page' ? (item.children ?? []) : [];
        if (children.length === 0 || depth >= MAX_TREE_DEPTH) return <li>{link}</li>;
        return (
          <li class="tree-parent">
            {link}
            <details open={containsCurrent(item)}>
              <summary aria-label={`Pages in ${item.title}`}>{ICONS.chevronRight}</summary>
              <Tree items={children} depth={depth + 1} />
            </details>
          </li>
        );
      })}
    </ul>
  );
}

function Breadcrumbs({ links }: { links: ReaderLink[] }): VNode {
  return (
    <nav class="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {links.map((link) => (
          <li>
            <Link link={link} />
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Cover({ cover }: { cover: NonNullable<ReaderPageModel['page']['cover']> }): ComponentChild {
  return (
    <div class="page-cover">
      <ThemedImage url={{ light: cover.src, dark: cover.srcDark }} alt={cover.alt ?? ''} className="cover-image" />
    </div>
  );
}

function Pagination({ previous, next }: { previous?: ReaderLink; next?: ReaderLink }): VNode {
  const card = (link: ReaderLink, direction: 'previous' | 'next') => {
    const href = safeLinkUrl(link.href);
    return href ? (
      <a class={`pagination-link ${direction}`} href={href} rel={direction === 'previous' ? 'prev' : 'next'}>
        <span class="pagination-direction">{direction === 'previous' ? 'Previous' : 'Next'}</span>
        <span class="pagination-title">{link.title}</span>
      </a>
    ) : null;
  };
  return (
    <nav class="pagination" aria-label="Previous and next pages">
      {previous ? card(previous, 'previous') : <span />}
      {next ? card(next, 'next') : null}
    </nav>
  );
}

function Footer({ model }: { model: ReaderPageModel }): VNode {
  const footer = model.footer;
  return (
    <footer class="site-footer">
      {footer && footer.groups.length > 0 ? (
        <div class="footer-groups">
          {footer.groups.map((group) => (
            <nav class="footer-group" aria-label={group.title}>
              <p class="footer-group-title">{group.title}</p>
              <ul>
                {group.links.map((link) => (
                  <li>
                    <Link link={link} externalBlank={model.customization.externalLinks === 'blank'} />
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
      ) : null}
      <p class="copyright">{footer?.copyright ?? model.site.title}</p>
    </footer>
  );
}

function SearchDialog(): VNode {
  return (
    <dialog id="search-dialog" class="search-dialog" aria-labelledby="search-dialog-title">
      <form method="dialog" class="search-form" role="search">
        <h2 id="search-dialog-title" class="sr-only">
          Search
        </h2>
        <label for="search-input" class="sr-only">
          Search the documentation
        </label>
        <input id="search-input" type="search" name="query" placeholder="Search…" autocomplete="off" aria-controls="search-results" />
        <button type="submit" class="icon-button" value="close" aria-label="Close search">
          {ICONS.close}
        </button>
      </form>
      <ul id="search-results" class="search-results" aria-live="polite" />
    </dialog>
  );
}

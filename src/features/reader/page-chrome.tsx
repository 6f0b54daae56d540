import type { ComponentChild, VNode } from 'preact';
import { emojiCharacter } from './emoji.ts';
import { namedIcon } from './icon-set.tsx';
import { ICONS } from './icons.tsx';
import type { ReaderLink, ReaderPageModel, ThemedUrl } from './page-model.ts';
import { isExternalUrl, safeImageUrl, safeLinkUrl } from '../content/document/safe-url.ts';

/* The parts of a reader page around the content: header, announcement, cover, footer, search dialog. */

interface LinkProps { link: ReaderLink; className?: string; current?: boolean; externalBlank?: boolean; icon?: ComponentChild }

export function Link({ link, className, current, externalBlank, icon }: LinkProps): ComponentChild {
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
export function PageIcon({ emoji, icon, className }: { emoji?: string; icon?: string; className: string }): ComponentChild {
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

export function ThemedImage({ url, alt, className }: { url: ThemedUrl; alt: string; className: string }): ComponentChild {
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

export function Announcement({ announcement }: { announcement: NonNullable<ReaderPageModel['announcement']> }): VNode {
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

export function Header({ model }: { model: ReaderPageModel }): VNode {
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
                <Link
                  link={section}
                  className={section.current ? 'section current' : section.external ? 'section external' : 'section'}
                  current={section.current}
                  icon={namedIcon(section.icon)}
                  externalBlank={section.external ? blank : false}
                />
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}

export function Cover({ cover }: { cover: NonNullable<ReaderPageModel['page']['cover']> }): ComponentChild {
  return (
    <div class="page-cover">
      <ThemedImage url={{ light: cover.src, dark: cover.srcDark }} alt={cover.alt ?? ''} className="cover-image" />
    </div>
  );
}

export function Footer({ model }: { model: ReaderPageModel }): VNode {
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

/** The search dialog; with `ask`, a button asks the typed question and the answer streams above the results. */
export function SearchDialog({ ask = false }: { ask?: boolean } = {}): VNode {
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
      {ask ? (
        <section class="ask" aria-label="Answer from the docs">
          <button type="button" class="ask-button" hidden>
            Ask about “<span class="ask-question" />”
          </button>
          <div class="ask-answer" aria-live="polite" hidden />
        </section>
      ) : null}
      <ul id="search-results" class="search-results" aria-live="polite" />
    </dialog>
  );
}

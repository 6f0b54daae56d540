import { evaluateCondition, type VisitorContext } from '../adaptive/conditions.ts';
import { readPublishedContent, readPublishedPageDocument, type PublishedContent } from '../content/service.ts';
import type { ContentRef, Document } from '../content/document/types.ts';
import type { PageNode } from '../content/tree.ts';
import { presentTree, sectionsOf, type presentExternalLink } from '../sites/present.ts';
import { customizationOf } from '../sites/service.ts';
import { siteSpaceCustomizationOf } from '../sites/site-space-customization.ts';
import { siteUrl } from '../sites/urls.ts';
import { redirectOfSpace } from '../git-sync/queries.ts';
import { siteRedirectFrom, type SiteRedirectDestination } from '../sites/redirects.ts';
import { appendSuffix } from '../sites/redirect-paths.ts';
import type { CustomizationValue } from '../sites/customization-schema.ts';
import type { SitesTable as SiteRow } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import type { HighlightBudget } from './highlight-budget.ts';
import type { SiteState } from './site-state.ts';
import { outline } from './heading-anchors.ts';
import { resolveLink, type LinkResolver } from './link-resolver.ts';
import type { NavItem, ReaderLink, ReaderPageModel } from './page-model.ts';
import { renderDocument } from './render-document.tsx';
import { openapiRefsOf } from './render-openapi.tsx';
import { referencesOfSpecs } from '../openapi-specs/queries.ts';
import { computedSpecSlugs, expandComputedPages } from './computed-pages.ts';
import {
  ancestry,
  firstPage,
  listedTree,
  locate,
  pagesByPath,
  pageUrl,
  readingOrder,
  visibleTree,
  type Condition,
  type VisibleSection,
  type VisibleSite,
  type VisibleTab,
  type VisibleVariant,
} from './site-view.ts';

/**
 * The reader's reads: a published site as one visitor sees it, and one of its pages as the data `renderPage`
 * takes. The visitor was admitted before (routes.ts, `resolveVisitor`); everything here is filtered by their
 * claims, so content meant for others is never even rendered.
 */

/** Root-relative form of an absolute URL of this server: links keep working behind any host name. */
function rootRelative(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export interface SiteView {
  site: SiteRow;
  /** The site's customization; a variant with an override of its own shows `variantCustomizations`'s. */
  customization: CustomizationValue;
  variantCustomizations: ReadonlyMap<string, CustomizationValue>;
  visible: VisibleSite;
  holds: Condition;
  visitor: VisitorContext;
  /** What the site's pages are made of apart from the page and the visitor (site-state.ts). */
  version: string;
  /** Absolute URL of the site's root (on its custom hostname when it has one). */
  baseUrl: string;
}

/** Views per site state, per visitor's claims: most visitors of a site share one (no claims). */
const views = new WeakMap<SiteState, Map<string, SiteView>>();
const VIEWS_PER_STATE = 64;

/** The site's sections and variants this visitor may see, in order, with their URLs. */
export function viewOfSite(ctx: AppContext, state: SiteState, visitor: VisitorContext): SiteView {
  const claimsKey = JSON.stringify(visitor.claims);
  let byClaims = views.get(state);
  if (!byClaims) views.set(state, (byClaims = new Map()));
  const known = byClaims.get(claimsKey);
  if (known) return known;
  const view = buildView(ctx, state, visitor);
  if (byClaims.size < VIEWS_PER_STATE) byClaims.set(claimsKey, view);
  return view;
}

function buildView(ctx: AppContext, state: SiteState, visitor: VisitorContext): SiteView {
  const { site, tree } = state;
  // The URLs the site answers at: an unpublished site is read only through a preview (sites/preview.ts), at
  // the URLs it will have once published.
  const presented = presentTree(ctx.config, site.published === 1 ? tree : { ...tree, site: { ...site, published: 1 } }, () => null);
  const holds: Condition = (expression) => evaluateCondition(expression, visitor);
  const rowOf = new Map(tree.siteSpaces.map((row) => [row.id, row]));
  const variantsOf = (objects: { id: string; title: string; path: string; default: boolean; condition?: string; urls: { published?: string } }[]): VisibleVariant[] =>
    objects
      .filter((ss) => !ss.condition || holds(ss.condition))
      .map((ss) => {
        const row = rowOf.get(ss.id)!;
        return {
          id: ss.id,
          title: ss.title,
          path: ss.path,
          isDefault: ss.default,
          url: rootRelative(ss.urls.published ?? ''),
          spaceId: row.space_id,
          revisionId: row.space.revision_id,
        };
      });
  let sections: VisibleSite['sections'];
  let tabs: VisibleTab[] | undefined;
  if (presented.structure.type === 'sections') {
    const flat = sectionsOf(presented.structure.structure);
    sections = flat
      .filter((section) => !section.condition || holds(section.condition))
      .map((section) => ({
        id: section.id,
        title: section.title,
        path: section.path,
        isDefault: section.default,
        ...(section.icon ? { icon: section.icon } : {}),
        url: rootRelative(section.urls.published ?? ''),
        variants: variantsOf(section.siteSpaces),
      }))
      .filter((section) => section.variants.length > 0);
    const shown = new Set(sections.map((section) => section.id));
    const tabOf = (item: { object: string; id: string }): VisibleTab[] => {
      if (item.object === 'site-section') return shown.has(item.id) ? [{ kind: 'section', id: item.id }] : [];
      if (item.object !== 'site-external-link') return [];
      const link = item as ReturnType<typeof presentExternalLink>;
      // A draft link is not live; a conditional one shows to the visitors it holds for.
      if (link.draft || (link.condition && !holds(link.condition))) return [];
      return [{ kind: 'link', title: link.title, url: link.url, ...(link.icon ? { icon: link.icon } : {}) }];
    };
    tabs = presented.structure.structure.flatMap((item) => (item.object === 'site-section-group' ? item.children.flatMap(tabOf) : tabOf(item)));
  } else {
    sections = [{ id: null, title: site.title, path: '', isDefault: true, url: '', variants: variantsOf(presented.structure.structure) }];
  }
  const variantCustomizations = new Map(tree.siteSpaces.filter((row) => row.customization !== null).map((row) => [row.id, siteSpaceCustomizationOf(site, row)]));
  return { site, customization: customizationOf(site), variantCustomizations, visible: { sections, ...(tabs ? { tabs } : {}) }, holds, visitor, version: state.version, baseUrl: siteUrl(ctx.config, site) };
}

/** The customization a variant's pages show: its own override over the site's, else the site's. */
export function customizationOfVariant(view: SiteView, variantId: string | undefined): CustomizationValue {
  return (variantId !== undefined ? view.variantCustomizations.get(variantId) : undefined) ?? view.customization;
}

/** A variant's pages as this visitor sees them, with each page's URL. */
export interface VariantPages {
  variant: VisibleVariant;
  content: PublishedContent;
  visible: PageNode[];
  first: PageNode | undefined;
  byPath: Map<string, PageNode>;
  byId: Map<string, PageNode>;
  /** Documents of computed pages and of the pages generated under them (computed-pages.ts). */
  generated: Map<string, Document>;
  url(node: PageNode): string;
}

/** Pages per view and variant: a view lives as long as its site state, and its variants' revisions are fixed. */
const variantPages = new WeakMap<SiteView, Map<string, Promise<VariantPages>>>();

export function pagesOfVariant(ctx: AppContext, view: SiteView, variant: VisibleVariant): Promise<VariantPages> {
  let byVariant = variantPages.get(view);
  if (!byVariant) variantPages.set(view, (byVariant = new Map()));
  let pages = byVariant.get(variant.id);
  if (!pages) {
    pages = loadVariantPages(ctx, view, variant);
    byVariant.set(variant.id, pages);
    // A failed read is not kept: the next request tries again.
    pages.catch(() => byVariant.delete(variant.id));
  }
  return pages;
}

async function loadVariantPages(ctx: AppContext, view: SiteView, variant: VisibleVariant): Promise<VariantPages> {
  const content = await readPublishedContent(ctx, variant.revisionId);
  const slugs = computedSpecSlugs(content.tree);
  const expanded = slugs.length > 0 ? expandComputedPages(content.tree, await referencesOfSpecs(ctx.db, view.site.organization_id, { slugs, urls: [] })) : undefined;
  const visible = visibleTree(expanded?.tree ?? content.tree, view.holds);
  const first = firstPage(visible);
  const byPath = pagesByPath(visible);
  const byId = new Map([...byPath.values()].map((node) => [node.page.id, node]));
  return { variant, content, visible, first, byPath, byId, generated: expanded?.documents ?? new Map(), url: (node) => pageUrl(variant, node, first) };
}

/** What a URL names on a site: a page of a variant, or nothing (a 404). `.md` asks for its markdown. */
export interface LocatedPage {
  section: VisibleSection;
  variant: VisibleVariant;
  pages: VariantPages;
  node: PageNode;
}

export async function locatePage(ctx: AppContext, view: SiteView, segments: readonly string[]): Promise<LocatedPage | undefined> {
  const found = locate(view.visible, segments);
  if (!found) return undefined;
  const pages = await pagesOfVariant(ctx, view, found.variant);
  const node = found.pagePath === '' ? pages.first : pages.byPath.get(found.pagePath);
  return node ? { section: found.section, variant: found.variant, pages, node } : undefined;
}

/**
 * The site as links see it: the pages of every variant this visitor sees, so that a reference to a page of
 * another space of the site resolves to its published URL. A space published by several variants is reached
 * through the one in the current section, else the first.
 */
export interface SitePages {
  current: VariantPages;
  bySpace: Map<string, VariantPages>;
}

export async function sitePagesOf(ctx: AppContext, view: SiteView, current: VariantPages, section?: VisibleSection): Promise<SitePages> {
  const bySpace = new Map<string, VariantPages>([[current.variant.spaceId, current]]);
  const ordered = [...(section ? section.variants : []), ...view.visible.sections.flatMap((s) => s.variants)];
  for (const variant of ordered) {
    if (bySpace.has(variant.spaceId)) continue;
    bySpace.set(variant.spaceId, await pagesOfVariant(ctx, view, variant));
  }
  return { current, bySpace };
}

/** Page, file and anchor references of a variant's documents as the URLs this visitor can follow. */
export function linksOf(site: SitePages | VariantPages): LinkResolver {
  const { current, bySpace } = 'bySpace' in site ? site : { current: site, bySpace: new Map([[site.variant.spaceId, site]]) };
  const pagesIn = (space: string | undefined) => (space ? bySpace.get(space) : current);
  const target = (ref: { space?: string; page: string }) => {
    const pages = pagesIn(ref.space);
    const node = pages?.byId.get(ref.page);
    return pages && node ? { pages, node } : undefined;
  };
  return {
    page(ref) {
      const found = target(ref);
      if (!found) return null;
      const { node } = found;
      return { href: found.pages.url(node), title: node.page.title, ...(node.page.attributes.emoji ? { emoji: node.page.attributes.emoji } : {}) };
    },
    file(ref) {
      return current.content.files.get(ref.file) ?? null;
    },
    anchor(ref) {
      if (!ref.page) return { href: `#${ref.anchor}` };
      const found = target({ page: ref.page, ...(ref.space ? { space: ref.space } : {}) });
      return found ? { href: `${found.pages.url(found.node)}#${ref.anchor}`, title: found.node.page.title } : null;
    },
    other(ref) {
      // A link to a whole space of the site: its variant's first page.
      const space = ref.kind === 'space' ? ref.space : undefined;
      const pages = typeof space === 'string' ? bySpace.get(space) : undefined;
      return pages ? { href: pages.variant.url, title: pages.variant.title } : null;
    },
  };
}

function navItems(nodes: readonly PageNode[], pages: VariantPages, links: LinkResolver, currentId: string): NavItem[] {
  const items: NavItem[] = [];
  for (const node of nodes) {
    const { page } = node;
    if (page.kind === 'group') {
      items.push({ kind: 'group', title: page.title, children: navItems(node.children, pages, links, currentId) });
    } else if (page.kind === 'link') {
      const target = resolveLink(page.attributes.target as ContentRef | undefined, links);
      if (target) items.push({ kind: 'link', title: page.title, href: target.href });
    } else {
      const children = navItems(node.children, pages, links, currentId);
      items.push({
        kind: 'page',
        title: page.title,
        href: pages.url(node),
        ...(page.attributes.emoji ? { emoji: page.attributes.emoji } : {}),
        ...(page.attributes.icon ? { icon: page.attributes.icon } : {}),
        ...(page.id === currentId ? { current: true } : {}),
        ...(children.length > 0 ? { children } : {}),
      });
    }
  }
  return items;
}

function contentLink(link: { title: string; to: unknown } | undefined, links: LinkResolver): ReaderLink | undefined {
  const resolved = link ? resolveLink(link.to as ContentRef, links) : null;
  return link && resolved ? { title: link.title, href: resolved.href } : undefined;
}

const SERVED_FONT_FILE = /^\/files\/[0-9a-f]{64}\/[^/?#]+$/;

/**
 * The custom font a customization names, as the reader loads it: only faces whose file this server serves
 * (`/files/<hash>/<name>`), by that path alone, so a page loads its fonts from its own origin (the reader's
 * Content-Security-Policy allows no other) whatever host the customization's URL names.
 */
function customFontOf(font: CustomizationValue['styling']['font']) {
  if (typeof font === 'string' || !font.custom) return {};
  const faces = font.fontFaces.flatMap((face) =>
    face.sources.flatMap((source) => {
      const path = URL.canParse(source.url) ? new URL(source.url).pathname : '';
      const format = source.format ?? (path.endsWith('.woff') ? 'woff' : 'woff2');
      return SERVED_FONT_FILE.test(path) ? [{ weight: face.weight, path, format }] : [];
    }),
  );
  return faces.length > 0 ? { font: { family: font.fontFamily, faces } } : {};
}

/** The site's navigation tabs: its visible sections (the current one marked) and its external links, in order. */
function sectionTabs(view: SiteView, currentId: string | null): NonNullable<ReaderPageModel['sections']> {
  const tabs = view.visible.tabs ?? view.visible.sections.flatMap((s): VisibleTab[] => (s.id === null ? [] : [{ kind: 'section', id: s.id }]));
  return tabs.flatMap((tab): NonNullable<ReaderPageModel['sections']> => {
    if (tab.kind === 'link') return [{ title: tab.title, href: tab.url, external: true, ...(tab.icon ? { icon: tab.icon } : {}) }];
    const s = view.visible.sections.find((candidate) => candidate.id === tab.id);
    return s ? [{ title: s.title, href: s.url, ...(s.id === currentId ? { current: true } : {}), ...(s.icon ? { icon: s.icon } : {}) }] : [];
  });
}

/**
 * The chrome every page of a variant shares (header, footer, theme), for a page or the 404 page (the site's
 * own when no variant is named).
 */
export function chromeOf(view: SiteView, links: LinkResolver, variantId?: string) {
  const c = customizationOfVariant(view, variantId);
  const home = new URL(view.baseUrl).pathname;
  const favicon = 'icon' in c.favicon && c.favicon.icon ? { icon: c.favicon.icon } : 'emoji' in c.favicon && c.favicon.emoji ? { emoji: c.favicon.emoji } : undefined;
  return {
    lang: 'en',
    site: { title: c.title ?? view.site.title, href: home, ...(c.header.logo ? { logo: c.header.logo } : {}), ...(favicon ? { favicon } : {}) },
    customization: {
      primaryColor: c.styling.primaryColor,
      corners: c.styling.corners,
      theme: { default: c.themes.default, toggeable: c.themes.toggeable },
      externalLinks: c.externalLinks.target,
      ...customFontOf(c.styling.font),
    },
    header: {
      links: c.header.links
        .filter((item) => !item.condition || view.holds(item.condition))
        .flatMap((item) => {
          const link = contentLink(item.to ? { title: item.title, to: item.to } : item.links[0] ? { title: item.title, to: item.links[0].to } : undefined, links);
          return link ? [{ ...link, ...(item.style ? { style: item.style } : {}) }] : [];
        }),
    },
    ...(c.announcement?.enabled
      ? {
          announcement: {
            message: c.announcement.message,
            style: c.announcement.style,
            ...(contentLink(c.announcement.link, links) ? { link: contentLink(c.announcement.link, links)! } : {}),
          },
        }
      : {}),
    footer: {
      groups: c.footer.groups.map((group) => ({ title: group.title, links: group.links.flatMap((l) => contentLink(l, links) ?? []) })),
      ...(c.footer.copyright ? { copyright: c.footer.copyright } : {}),
    },
  } satisfies Omit<ReaderPageModel, 'page' | 'breadcrumbs' | 'seo' | 'tree'>;
}

/** A page's document: stored (with what its reusable-content blocks include), or generated for a computed page. */
export async function documentOfPage(ctx: AppContext, pages: VariantPages, node: PageNode): Promise<Document | undefined> {
  return pages.generated.get(node.page.id) ?? (await readPublishedPageDocument(ctx, pages.content, node.page.documentId));
}

/** Whether search engines are told to keep out: a site that is not public, or a page that asks for it. */
export function noindexOf(site: SiteRow, node?: PageNode): boolean {
  return site.visibility !== 'public' || Boolean(node?.page.attributes.noIndex || node?.page.attributes.noRobotsIndex);
}

/**
 * The whole page model of a located page, its document rendered for this visitor; `highlighting` bounds the time
 * spent highlighting its code.
 */
export async function pageModel(ctx: AppContext, view: SiteView, located: LocatedPage, highlighting?: HighlightBudget): Promise<ReaderPageModel> {
  const { pages, node, section } = located;
  const links = linksOf(await sitePagesOf(ctx, view, pages, section));
  const c = customizationOfVariant(view, located.variant.id);
  const document = await documentOfPage(ctx, pages, node);
  // The API references of the OpenAPI specs the page's blocks name, from the site's organization.
  const openapiNames = document ? openapiRefsOf(document) : { slugs: [], urls: [] };
  const openapi = openapiNames.slugs.length + openapiNames.urls.length > 0 ? await referencesOfSpecs(ctx.db, view.site.organization_id, openapiNames) : undefined;
  const html = document
    ? await renderDocument(document, links, {
        externalLinks: c.externalLinks.target,
        evaluateCondition: view.holds,
        variables: { space: pages.content.variables, page: node.page.attributes.variables },
        ...(openapi ? { openapi } : {}),
        ...(highlighting ? { highlighting } : {}),
      })
    : await renderDocument({ object: 'document', data: {}, nodes: [] } as unknown as Document, links, {});
  const order = readingOrder(listedTree(pages.visible));
  const index = order.findIndex((n) => n.page.id === node.page.id);
  const asLink = (n: PageNode | undefined): ReaderLink | undefined => (n ? { title: n.page.title, href: pages.url(n) } : undefined);
  const previous = c.pagination.enabled && index > 0 ? asLink(order[index - 1]) : undefined;
  const next = c.pagination.enabled && index >= 0 ? asLink(order[index + 1]) : undefined;
  const chain = ancestry(pages.visible, node.page.id).slice(0, -1);
  const cover = node.page.attributes.cover as { ref?: ContentRef; refDark?: ContentRef } | undefined;
  const coverSrc = cover?.ref ? resolveLink(cover.ref, links)?.href : undefined;
  const canonical = new URL(pages.url(node), view.baseUrl).toString();
  const showSections = view.visible.sections.length > 1 || (view.visible.sections[0]?.id ?? null) !== null || (view.visible.tabs ?? []).some((tab) => tab.kind === 'link');
  return {
    ...chromeOf(view, links, located.variant.id),
    ...(showSections ? { sections: sectionTabs(view, section.id) } : {}),
    ...(section.variants.length > 1
      ? { variants: section.variants.map((v) => ({ title: v.title, href: v.url, ...(v.id === located.variant.id ? { current: true } : {}) })) }
      : {}),
    tree: navItems(listedTree(pages.visible), pages, links, node.page.id),
    breadcrumbs: chain.filter((n) => n.page.kind === 'document').map((n) => ({ title: n.page.title, href: pages.url(n) })),
    page: {
      title: node.page.title,
      ...(node.page.attributes.description ? { description: node.page.attributes.description } : {}),
      ...(node.page.attributes.emoji ? { emoji: node.page.attributes.emoji } : {}),
      ...(node.page.attributes.icon ? { icon: node.page.attributes.icon } : {}),
      ...(coverSrc ? { cover: { src: coverSrc } } : {}),
      html,
      outline: document ? outline(document) : [],
    },
    ...(previous ? { previous } : {}),
    ...(next ? { next } : {}),
    seo: { canonical, noindex: noindexOf(view.site, node), ...(c.socialPreview.url ? { image: c.socialPreview.url } : {}) },
    searchUrl: `${new URL(view.baseUrl).pathname}search.json`,
    ...(readerAsks(ctx, view) ? { askUrl: `${new URL(view.baseUrl).pathname}${ASK_PATH.join('/')}` } : {}),
    ...(c.pdf.enabled ? { pdf: pdfUrlsOf(view, located) } : {}),
  };
}

/** The site's PDF endpoint (serve-site.ts), as GitBook names it: this page alone, and its variant's pages. */
export const PDF_PATH = ['~gitbook', 'pdf'] as const;

/** The site's Ask endpoint (visitor-ask.ts), and where a reader rates an answer (POST). */
export const ASK_PATH = ['~gitbook', 'ask'] as const;
export const ASK_FEEDBACK_PATH = ['~gitbook', 'ask', 'feedback'] as const;

/** Whether the site's reader offers Ask: a model is configured and the site's `ai.mode` is not `none`. */
export function readerAsks(ctx: AppContext, view: SiteView): boolean {
  return ctx.ai !== undefined && view.customization.ai.mode !== 'none';
}

function pdfUrlsOf(view: SiteView, located: LocatedPage): { page: string; all: string } {
  const base = `${new URL(view.baseUrl).pathname}${PDF_PATH.join('/')}`;
  return { page: `${base}?page=${encodeURIComponent(located.node.page.id)}&only=yes`, all: `${base}?variant=${encodeURIComponent(located.variant.id)}` };
}

/**
 * Where a site redirect (the official createSiteRedirect) sends a path that names no page: its section's,
 * variant's or page's URL for this visitor (with what its wildcard matched, when it captures it), or its external
 * URL; undefined when there is none or the destination is not theirs (hidden by a condition, deleted since).
 */
export async function siteRedirectUrl(ctx: AppContext, view: SiteView, segments: readonly string[]): Promise<{ url: string; permanent: boolean } | undefined> {
  const applied = await siteRedirectFrom(ctx.db, view.site.id, segments.join('/'));
  if (!applied) return undefined;
  const url = await destinationUrlFor(ctx, view, applied.destination);
  return url === undefined ? undefined : { url: appendSuffix(url, applied.suffix), permanent: applied.permanent };
}

async function destinationUrlFor(ctx: AppContext, view: SiteView, destination: SiteRedirectDestination): Promise<string | undefined> {
  if (destination.kind === 'external') return destination.url;
  if (destination.kind === 'site-section') return view.visible.sections.find((s) => s.id === destination.siteSectionId)?.url;
  const variant = view.visible.sections.flatMap((s) => s.variants).find((v) => v.id === destination.siteSpaceId);
  if (!variant || destination.kind === 'site-space') return variant?.url;
  const pages = await pagesOfVariant(ctx, view, variant);
  const node = pages.byId.get(destination.pageId);
  return node ? pages.url(node) : undefined;
}

/**
 * Where a path that names no page was moved to: a redirect of the variant's space (`.gitbook.yaml`, kept by Git
 * Sync), as the URL of its page for this visitor; undefined when there is none or its page is not theirs.
 */
export async function redirectedPageUrl(ctx: AppContext, view: SiteView, segments: readonly string[]): Promise<string | undefined> {
  const found = locate(view.visible, segments);
  if (!found || found.pagePath === '') return undefined;
  const moved = await redirectOfSpace(ctx.db, found.variant.spaceId, found.pagePath);
  if (!moved) return undefined;
  const pages = await pagesOfVariant(ctx, view, found.variant);
  const node = pages.byId.get(moved.pageId);
  return node ? `${pages.url(node)}${moved.anchor ? `#${moved.anchor}` : ''}` : undefined;
}

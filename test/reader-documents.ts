import type { Document, FlowBlock } from '../src/features/content/document/types.ts';
import { code, divider, doc, expandable, h, hint, image, images, item, leaf, link, ol, p, quote, t, tab, table, tabs, task, tasks, ul } from '../src/features/content/document/test-fixtures.ts';
import { outline } from '../src/features/reader/heading-anchors.ts';
import type { LinkResolver } from '../src/features/reader/link-resolver.ts';
import type { ReaderPageModel } from '../src/features/reader/page-model.ts';
import { renderDocument } from '../src/features/reader/render-document.tsx';
import type { RenderOptions } from '../src/features/reader/render-document.tsx';
import { png } from './fixtures/png.ts';

/*
 * What the reader's tests share: a link resolver over a tiny fake site, a document that uses every block and
 * inline, and a page model around it.
 */

export const links: LinkResolver = {
  page: (ref) => (ref.page === 'missing' ? null : { href: `/docs/${ref.page}`, title: `Page ${ref.page}`, emoji: ref.page === 'guide' ? '1f4d8' : undefined }),
  file: (ref) =>
    ref.file === 'missing' ? null : { href: `/files/${ref.file}`, name: `${ref.file}.png`, contentType: 'image/png', size: 2048 },
  anchor: (ref) => ({ href: ref.page ? `/docs/${ref.page}#${ref.anchor}` : `#${ref.anchor}`, title: ref.anchor }),
  other: (ref) => (ref.kind === 'user' ? { href: '/users/ada', title: 'Ada' } : null),
};

/**
 * What `links` answers for the pictures of everyBlockDocument (its image and its drawing), as real PNGs: the
 * Chromium tests serve the page from a made-up origin, and their screenshots must show pictures, not alt text.
 */
export const fixtureFiles: ReadonlyMap<string, { contentType: string; body: Buffer }> = new Map([
  ['/files/diagram', { contentType: 'image/png', body: png(480, 200, 0x9c) }],
  ['/files/sketch', { contentType: 'image/png', body: png(240, 120, 0xc8) }],
]);

const block = (value: Record<string, unknown>): FlowBlock => ({ object: 'block', ...value }) as unknown as FlowBlock;
const inline = (value: Record<string, unknown>) => ({ object: 'inline', isVoid: true, ...value }) as never;

/** A document with every block and inline type the renderer knows. */
export function everyBlockDocument(): Document {
  return doc(
    h(1, 'Getting started'),
    p(
      t('Plain, ', leaf('bold', 'bold'), ', ', leaf('italic', 'italic'), ', ', leaf('struck', 'strikethrough'), ', ', leaf('npm i', 'code'), ', ', leaf('Ctrl', 'keyboard'), ' x', leaf('2', 'superscript'), ' H', leaf('2', 'subscript'), 'O. '),
      link({ kind: 'page', page: 'guide' }, 'a page'),
      t(', '),
      link({ kind: 'url', url: 'https://example.com/docs' }, 'an external site'),
      t(', '),
      link({ kind: 'anchor', anchor: 'install' }, 'an anchor'),
      t(', '),
      link({ kind: 'file', file: 'diagram' }, 'a file'),
      t(' and '),
      link({ kind: 'page', page: 'missing' }, 'a deleted page'),
      t('. Emoji '),
      inline({ type: 'emoji', data: { code: '1f680' } }),
      t(', math '),
      inline({ type: 'inline-math', data: { formula: 'e^{i\\pi} + 1 = 0' } }),
      t(', an icon '),
      inline({ type: 'icon', data: { icon: 'rocket' } }),
      t(', a mention '),
      inline({ type: 'mention', data: { ref: { kind: 'user', user: 'u1' } } }),
      t(' and a button '),
      inline({ type: 'button', data: { label: 'Try it', kind: 'primary', ref: { kind: 'page', page: 'guide' } } }),
      t('.'),
    ),
    h(2, 'Install'),
    ul(item(p('First')), item(p('Second'), ul(item(p('Nested'))))),
    ol(3, item(p('Three')), item(p('Four'))),
    tasks(task(true, p('Done task')), task(false, p('Open task'))),
    code(['import { x } from "y";', 'const answer = 42; // the answer', 'console.log(answer);'], { syntax: 'typescript', title: 'example.ts', lineNumbers: true }),
    code(['plain text', 'in an unknown language'], { syntax: 'no-such-language' }),
    hint('info', p('An info hint.')),
    hint('warning', p('A warning hint.')),
    hint('danger', p('A danger hint.')),
    hint('success', p('A success hint.')),
    quote(p('A quote.')),
    divider(),
    table([{ title: 'Name' }, { title: 'Value', align: 'right' }], [[[t('alpha')], [t('1')]], [[t('beta')], [t('2')]]]),
    images(image({ kind: 'file', file: 'diagram' }, 'A diagram', 'The caption')),
    tabs(tab('npm', p('npm install quire')), tab('yarn', p('yarn add quire'))),
    expandable('More details', p('Hidden until opened.')),
    block({ type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=abc' } }),
    block({ type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'report' } } }),
    block({ type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'guide' } } }),
    block({ type: 'math', isVoid: true, data: { formula: '\\int_0^1 x^2\\,dx = \\frac{1}{3}' } }),
    block({ type: 'drawing', isVoid: true, data: { ref: { kind: 'file', file: 'sketch' } } }),
    block({ type: 'stepper', nodes: [block({ type: 'stepper-step', nodes: [p('Step one')] }), block({ type: 'stepper-step', nodes: [p('Step two')] })] }),
    block({ type: 'columns', data: {}, nodes: [block({ type: 'column', nodes: [p('Left column')] }), block({ type: 'column', nodes: [p('Right column')] })] }),
    block({ type: 'heading-3', data: { level: 4 }, nodes: [t('A fourth level')] }),
    block({
      type: 'updates',
      data: { format: 'full' },
      nodes: [block({ type: 'update', data: { date: '2026-01-15', tags: [{ kind: 'tag', tag: 'beta' }] }, nodes: [p('A new update.')] })],
    }),
    block({ type: 'prompt', data: { description: 'Example prompt' }, nodes: [p('Summarize the release notes.')] }),
    h(3, 'Last words'),
    p('The end.'),
  );
}

export async function renderEveryBlock(options: RenderOptions = {}) {
  const document = everyBlockDocument();
  return { document, html: await renderDocument(document, links, options), outline: outline(document) };
}

/** A page model with every part of the chrome. */
export async function everyPartPage(): Promise<ReaderPageModel> {
  const { html, outline: items } = await renderEveryBlock({ externalLinks: 'blank' });
  return {
    lang: 'en',
    site: { title: 'Acme Docs', href: '/', favicon: { emoji: '1f4d8' } },
    customization: { primaryColor: { light: '#346ddb', dark: '#7aa5ff' }, corners: 'rounded', theme: { toggeable: true }, externalLinks: 'blank' },
    header: { links: [{ title: 'Blog', href: 'https://blog.example.com' }, { title: 'Sign up', href: 'https://app.example.com', style: 'button-primary' }] },
    sections: [{ title: 'Guides', href: '/', current: true }, { title: 'API', href: '/api', icon: 'code' }],
    variants: [{ title: 'v2', href: '/', current: true }, { title: 'v1', href: '/v1' }],
    tree: [
      { kind: 'page', title: 'Introduction', href: '/' },
      {
        kind: 'group',
        title: 'Guides',
        children: [
          { kind: 'page', title: 'Getting started', href: '/getting-started', emoji: '1f680', current: true, children: [{ kind: 'page', title: 'Install', href: '/getting-started/install' }] },
          { kind: 'page', title: 'Configuration', href: '/configuration', icon: 'gear', children: [{ kind: 'page', title: 'Options', href: '/configuration/options' }] },
          { kind: 'link', title: 'Status page', href: 'https://status.example.com' },
        ],
      },
    ],
    breadcrumbs: [{ title: 'Guides', href: '/' }],
    page: { title: 'Getting started', description: 'Install Acme and write your first page.', emoji: '1f680', html, outline: items },
    previous: { title: 'Introduction', href: '/' },
    next: { title: 'Configuration', href: '/configuration' },
    announcement: { message: 'Version 2 is out.', style: 'info', link: { title: 'Read the notes', href: '/changelog' } },
    footer: { groups: [{ title: 'Company', links: [{ title: 'About', href: '/about' }] }], copyright: '© 2026 Acme' },
    seo: { canonical: 'https://docs.example.com/getting-started', noindex: false, image: 'https://docs.example.com/og.png' },
    searchUrl: '/search.json',
  };
}

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { faGithub, faWebAwesome as faWebAwesomeBrand, faXTwitter } from '@fortawesome/free-brands-svg-icons';
import { faRocket, faWebAwesome } from '@fortawesome/free-solid-svg-icons';
import { assetPath } from './assets.ts';
import { notFoundPage, renderPage } from './layout.tsx';
import type { ReaderPageModel } from './page-model.ts';
import { everyPartPage } from '../../../test/reader-documents.ts';

const page = async (change: (model: ReaderPageModel) => void = () => {}) => {
  const model = await everyPartPage();
  change(model);
  return renderPage(model);
};

describe('renderPage: the document around the content', () => {
  test('a full HTML document with language, title, description, canonical and social tags', async () => {
    const html = await page();
    assert.ok(html.startsWith('<!doctype html><html lang="en"'));
    assert.match(html, /<title>Getting started \| Acme Docs<\/title>/);
    assert.match(html, /<meta name="description" content="Install Acme and write your first page."\/>/);
    assert.match(html, /<link rel="canonical" href="https:\/\/docs.example.com\/getting-started"\/>/);
    assert.match(html, /<meta property="og:title" content="Getting started"\/>/);
    assert.match(html, /<meta property="og:image" content="https:\/\/docs.example.com\/og.png"\/>/);
    assert.match(html, /<meta name="twitter:card" content="summary_large_image"\/>/);
    assert.doesNotMatch(html, /noindex/);
  });

  test('noindex pages tell robots so', async () => {
    assert.match(await page((m) => (m.seo.noindex = true)), /<meta name="robots" content="noindex, nofollow"\/>/);
  });

  test('assets are linked by their fingerprinted names; nothing loads from another host', async () => {
    const html = await page();
    assert.ok(html.includes(`<link rel="stylesheet" href="${assetPath('css')}"/>`));
    assert.ok(html.includes(`<script src="${assetPath('js')}"></script>`));
    assert.doesNotMatch(html, /<script[^>]+src="https?:|<link rel="(?:stylesheet|preload|icon)"[^>]+href="https?:|<iframe/);
  });

  test('the favicon is an emoji drawn in SVG, or the site icon for each theme', async () => {
    assert.match(await page(), /<link rel="icon" href="data:image\/svg\+xml,[^"]*%F0%9F%93%98/);
    const icons = await page((m) => (m.site.favicon = { icon: { light: '/icon.png', dark: '/icon-dark.png' } }));
    assert.match(icons, /<link rel="icon" href="\/icon.png" media="\(prefers-color-scheme: light\)"\/>/);
    assert.match(icons, /<link rel="icon" href="\/icon-dark.png" media="\(prefers-color-scheme: dark\)"\/>/);
  });

  test('landmarks and a skip link', async () => {
    const html = await page();
    assert.match(html, /<a class="skip-link" href="#main">Skip to content<\/a>/);
    for (const landmark of ['<header class="site-header">', '<main id="main"', '<aside id="sidebar"', '<aside class="outline"', '<footer class="site-footer">']) assert.ok(html.includes(landmark), landmark);
  });
});

describe('renderPage: chrome', () => {
  test('the page tree lists groups, opens the current page and marks it', async () => {
    const html = await page();
    assert.match(html, /<p class="tree-group-title">Guides<\/p>/);
    assert.match(html, /<a href="\/getting-started" class="tree-link current" aria-current="page">/);
    assert.match(html, /<details open><summary aria-label="Pages in Getting started">/);
    assert.match(html, /<details><summary aria-label="Pages in Configuration">/);
    assert.match(html, /<a href="https:\/\/status.example.com" class="tree-link">Status page/);
  });

  test('sections, variants, breadcrumbs, outline, pagination, announcement and footer', async () => {
    const html = await page();
    assert.match(html, /<nav class="sections" aria-label="Sections"><ul><li><a href="\/" class="section current" aria-current="page">Guides<\/a>/);
    assert.match(html, /<details class="variants"><summary><span class="sr-only">Variant: <\/span>v2<\/summary>/);
    assert.match(html, /<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="\/">Guides<\/a><\/li><\/ol><\/nav>/);
    assert.match(html, /<li class="outline-level-1"><a href="#getting-started">Getting started<\/a><\/li><li class="outline-level-2"><a href="#install">Install<\/a><\/li><\/ul>/);
    assert.doesNotMatch(html, /outline-level-3/);
    assert.match(html, /<a class="pagination-link previous" href="\/" rel="prev">/);
    assert.match(html, /<a class="pagination-link next" href="\/configuration" rel="next">/);
    assert.match(html, /<div class="announcement announcement-info" role="region" aria-label="Announcement"><p>Version 2 is out. <a href="\/changelog"/);
    assert.match(html, /<p class="copyright">© 2026 Acme<\/p>/);
  });

  test('without pagination, sections or variants, none of them shows', async () => {
    const html = await page((m) => {
      m.previous = undefined;
      m.next = undefined;
      m.sections = [];
      m.variants = [{ title: 'only', href: '/', current: true }];
      m.announcement = undefined;
      m.searchUrl = undefined;
    });
    for (const absent of ['class="pagination"', 'class="sections"', 'class="variants"', 'class="announcement', 'search-dialog', 'data-search-url']) assert.ok(!html.includes(absent), absent);
  });

  test('themes: a fixed default, and no toggle when the site allows none', async () => {
    const fixed = await page((m) => (m.customization.theme = { default: 'dark', toggeable: false }));
    assert.match(fixed, /<html lang="en" data-theme="dark" data-theme-toggle="off"/);
    assert.match(fixed, /<meta name="color-scheme" content="dark"\/>/);
    assert.doesNotMatch(fixed, /data-toggle-theme/);
    const system = await page();
    assert.doesNotMatch(system, /<html[^>]* data-theme="/);
    assert.match(system, /data-toggle-theme/);
  });

  test('the primary colour is a CSS variable, and only a hex colour gets there', async () => {
    assert.match(await page(), /style="--primary-light:#346ddb;--primary-dark:#7aa5ff"/);
    const hostile = await page((m) => (m.customization.primaryColor = { light: 'red;background:url(https://evil.example)', dark: '#000' }));
    assert.doesNotMatch(hostile, /evil/);
  });

  test('external header links honour the site target; hostile chrome text and URLs are neutralised', async () => {
    const html = await page((m) => {
      m.site.title = '<img src=x onerror=alert(1)>';
      m.header.links.push({ title: 'Bad', href: 'javascript:alert(1)' });
      m.tree.push({ kind: 'page', title: '"><script>x</script>', href: 'javascript:alert(2)' });
    });
    assert.match(html, /<a href="https:\/\/blog.example.com" class="header-link" target="_blank" rel="noopener noreferrer">Blog<span class="sr-only"> \(opens in a new tab\)<\/span><\/a>/);
    assert.doesNotMatch(html, /javascript:|<img src=x|<script>x/);
    assert.match(html, /<span class="header-link">Bad<\/span>/);
  });

  test('a logo replaces the title text, with a dark variant', async () => {
    const html = await page((m) => (m.site.logo = { light: '/logo.svg', dark: '/logo-dark.svg' }));
    assert.match(html, /<img class="logo only-light" src="\/logo.svg" alt="Acme Docs"\/><img class="logo only-dark" src="\/logo-dark.svg" alt="Acme Docs"\/>/);
  });

  test('icons of pages and sections are drawn inline; unknown names draw nothing', async () => {
    const html = await page((m) => {
      m.page.emoji = undefined;
      m.page.icon = 'rocket';
      m.tree.push({ kind: 'page', title: 'Odd', href: '/odd', icon: 'no-such-icon' });
    });
    assert.match(html, /<h1><span class="page-emoji" aria-hidden="true"><svg class="named-icon" viewBox="0 0 512 512" fill="currentColor" aria-hidden="true" focusable="false"><path d="M/);
    assert.match(html, /<a href="\/api" class="section"><svg class="named-icon"/);
    assert.match(html, /<a href="\/configuration" class="tree-link"><span class="tree-emoji" aria-hidden="true"><svg class="named-icon"/);
    assert.match(html, /<a href="\/odd" class="tree-link">Odd<\/a>/);
  });

  test('brand icons are drawn beside the solid ones; a name in both sets draws the solid icon', async () => {
    const html = await page((m) => {
      m.page.emoji = undefined;
      m.page.icon = 'github';
      for (const icon of ['x-twitter', 'web-awesome', 'rocket']) m.tree.push({ kind: 'page', title: icon, href: `/${icon}`, icon });
    });
    const drawn = ({ icon: [width, height, , , path] }: { icon: [number, number, ...unknown[]] }) =>
      `<svg class="named-icon" viewBox="0 0 ${width} ${height}" fill="currentColor" aria-hidden="true" focusable="false"><path d="${String(path)}"></path></svg>`;
    assert.ok(html.includes(`<h1><span class="page-emoji" aria-hidden="true">${drawn(faGithub)}`), 'github');
    assert.ok(html.includes(`<a href="/x-twitter" class="tree-link"><span class="tree-emoji" aria-hidden="true">${drawn(faXTwitter)}`), 'x-twitter');
    assert.ok(html.includes(`<a href="/rocket" class="tree-link"><span class="tree-emoji" aria-hidden="true">${drawn(faRocket)}`), 'rocket');
    // Font Awesome has Web Awesome's logo in both sets, drawn apart.
    assert.notEqual(drawn(faWebAwesome), drawn(faWebAwesomeBrand));
    assert.ok(html.includes(`<a href="/web-awesome" class="tree-link"><span class="tree-emoji" aria-hidden="true">${drawn(faWebAwesome)}`), 'web-awesome');
  });

  test('a cover and the page emoji', async () => {
    const html = await page((m) => (m.page.cover = { src: '/cover.jpg', alt: 'Mountains' }));
    assert.match(html, /<div class="page-cover"><img class="cover-image" src="\/cover.jpg" alt="Mountains"\/><\/div>/);
    assert.match(html, /<h1><span class="page-emoji" aria-hidden="true">🚀<\/span>Getting started<\/h1>/);
  });
});

describe('notFoundPage', () => {
  test('says so in the site chrome, links home, and is not indexed', async () => {
    const { page: _page, breadcrumbs: _b, seo: _s, ...model } = await everyPartPage();
    const html = await notFoundPage(model);
    assert.match(html, /<title>Page not found \| Acme Docs<\/title>/);
    assert.match(html, /<h1>Page not found<\/h1>/);
    assert.match(html, /<a href="\/">Go to the home page of Acme Docs<\/a>/);
    assert.match(html, /<meta name="robots" content="noindex, nofollow"\/>/);
  });
});

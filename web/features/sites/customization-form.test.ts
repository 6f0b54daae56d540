import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SiteCustomizationSettings } from '@gitbook/api';
import { applyForm, formOf, formProblem, overridePatch, sameSettings } from './customization-form.ts';

const pair = (color: string) => ({ light: color, dark: color });
// A customization as the API answers it (abridged to the fields the form reads, plus some it must keep).
const settings = {
  styling: { theme: 'clean', primaryColor: pair('#346ddb'), infoColor: pair('#787878'), font: 'Inter', sidebar: { background: 'default', list: 'default' } },
  favicon: { emoji: '📘' },
  header: { preset: 'default', links: [{ title: 'Docs home', to: { kind: 'page', page: 'p1' }, links: [], style: 'link' }] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pagination: { enabled: true },
  externalLinks: { target: 'self' },
  pdf: { enabled: true },
} as unknown as SiteCustomizationSettings;

describe('the customization form', () => {
  test('reads the settings it shows', () => {
    const form = formOf(settings);
    assert.equal(form.primaryLight, '#346ddb');
    assert.equal(form.title, '');
    assert.deepEqual(form.headerLinks, [{ title: 'Docs home', url: '', kept: { kind: 'page', page: 'p1' } }]);
  });

  test('writes its fields back and keeps the others (favicon, font, PDF, a link to a page)', () => {
    const form = { ...formOf(settings), title: ' Guide ', primaryLight: '#ff0000', logoLight: 'https://example.com/logo.png', copyright: '© Us' };
    form.headerLinks = [...form.headerLinks, { title: 'Blog', url: 'https://example.com/blog' }];
    const after = applyForm(settings, form);
    assert.equal(after.title, 'Guide');
    assert.deepEqual(after.styling.primaryColor, { light: '#ff0000', dark: '#346ddb' });
    assert.equal(after.styling.font, 'Inter');
    assert.deepEqual(after.favicon, { emoji: '📘' });
    assert.deepEqual(after.pdf, { enabled: true });
    assert.deepEqual(after.header.logo, { light: 'https://example.com/logo.png', dark: 'https://example.com/logo.png' });
    assert.deepEqual(after.header.links[0], { title: 'Docs home', to: { kind: 'page', page: 'p1' }, links: [], style: 'link' });
    assert.deepEqual(after.header.links[1], { title: 'Blog', to: { kind: 'url', url: 'https://example.com/blog' }, links: [] });
    assert.equal(after.footer.copyright, '© Us');
    assert.equal('announcement' in after, false);
  });

  test('leaves out what was emptied (title, logo, announcement)', () => {
    const withAll = applyForm(settings, { ...formOf(settings), title: 'Guide', logoLight: 'https://example.com/l.png', announcementEnabled: true, announcementMessage: 'New!' });
    const emptied = applyForm(withAll, { ...formOf(withAll), title: '', logoLight: '', logoDark: '', announcementEnabled: false, announcementMessage: '' });
    assert.equal('title' in emptied, false);
    assert.equal('logo' in emptied.header, false);
    assert.equal('announcement' in emptied, false);
  });

  test('the favicon: an emoji, an image for each mode (the light one for dark when empty), or none', () => {
    assert.deepEqual(formOf(settings).faviconKind, 'emoji');
    const icon = applyForm(settings, { ...formOf(settings), faviconKind: 'icon', faviconLight: ' https://example.com/i.png ', faviconDark: '' });
    assert.deepEqual(icon.favicon, { icon: { light: 'https://example.com/i.png', dark: 'https://example.com/i.png' } });
    assert.deepEqual(formOf(icon), { ...formOf(icon), faviconKind: 'icon', faviconLight: 'https://example.com/i.png', faviconDark: 'https://example.com/i.png' });
    assert.deepEqual(applyForm(icon, { ...formOf(icon), faviconKind: 'none' }).favicon, {});
    assert.deepEqual(applyForm(icon, { ...formOf(icon), faviconKind: 'emoji', faviconEmoji: '1f680' }).favicon, { emoji: '1f680' });
    assert.equal(formOf({ ...settings, favicon: {} }).faviconKind, 'none');
  });

  test('names the field that is wrong', () => {
    assert.equal(formProblem({ ...formOf(settings), faviconKind: 'icon', faviconLight: 'icon.png' }), 'Favicon: the image URL (light mode) must be a full URL (https://…)');
    assert.equal(formProblem({ ...formOf(settings), faviconKind: 'emoji', faviconEmoji: ' ' }), 'Favicon: an emoji is needed');
    assert.equal(formProblem({ ...formOf(settings), headerLinks: [{ title: 'Blog', url: 'not a url' }] }), 'Header link 1: the URL must be a full URL (https://…)');
    assert.equal(formProblem({ ...formOf(settings), announcementEnabled: true, announcementMessage: '' }), 'Announcement: a message of at least 2 characters is needed');
    assert.equal(formProblem(formOf(settings)), undefined);
  });
});

describe('a variant override', () => {
  test('holds only what changed, field by field inside the patched objects', () => {
    const after = applyForm(settings, { ...formOf(settings), primaryLight: '#00ff00', pagination: false });
    assert.deepEqual(overridePatch(settings, after), { styling: { primaryColor: { light: '#00ff00', dark: '#346ddb' } }, pagination: { enabled: false } });
  });

  test('null for what was taken away, nothing when nothing changed', () => {
    const withTitle = { ...settings, title: 'Guide' };
    assert.deepEqual(overridePatch(withTitle, settings), { title: null });
    assert.deepEqual(overridePatch(settings, applyForm(settings, formOf(settings))), {});
  });
});

test('two settings are the same whatever the order of their fields', () => {
  const { pagination, ...others } = settings;
  const reordered = { pagination, ...others, themes: { toggeable: true, default: 'light' } } as SiteCustomizationSettings;
  assert.equal(sameSettings(settings, reordered), true);
  assert.equal(sameSettings(settings, { ...settings, pagination: { enabled: false } }), false);
});

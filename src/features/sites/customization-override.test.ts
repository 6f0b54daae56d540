import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyOverride, patchOverride } from './customization-override.ts';
import { defaultCustomization } from './customization-schema.ts';

describe('a site-space customization override (pure)', () => {
  const site = defaultCustomization({ title: 'Docs' });

  test('no override shows the site’s customization as it is', () => {
    assert.equal(applyOverride(site, null), site);
  });

  test('a field of a section is overridden alone; its siblings stay the site’s', () => {
    const shown = applyOverride(site, { styling: { primaryColor: { light: '#111111', dark: '#222222' } } });
    assert.deepEqual(shown.styling.primaryColor, { light: '#111111', dark: '#222222' });
    assert.equal(shown.styling.theme, site.styling.theme);
    assert.deepEqual(shown.header, site.header);
    assert.deepEqual(site.styling.primaryColor, { light: '#346DDB', dark: '#346DDB' }, 'the site’s customization is not changed');
  });

  test('a nested section (styling.sidebar) is overridden field by field too', () => {
    const shown = applyOverride(site, { styling: { sidebar: { list: 'pill' } } });
    assert.deepEqual(shown.styling.sidebar, { background: 'default', list: 'pill' });
  });

  test('a value that is an object (a colour pair, the header’s links, the favicon) is replaced whole', () => {
    assert.deepEqual(patchOverride({ styling: { primaryColor: { light: '#111111', dark: '#222222' } } }, { styling: { primaryColor: { light: '#333333', dark: '#444444' } } }), {
      styling: { primaryColor: { light: '#333333', dark: '#444444' } },
    });
    assert.deepEqual(applyOverride(site, { favicon: { emoji: '1f600' } }).favicon, { emoji: '1f600' });
    assert.deepEqual(applyOverride(site, { header: { links: [] } }).header.preset, 'default');
  });

  test('a patch adds to what is overridden; null takes one field away, and an emptied section goes', () => {
    const first = patchOverride(null, { title: 'V2', styling: { theme: 'bold' } });
    assert.deepEqual(first, { title: 'V2', styling: { theme: 'bold' } });
    const second = patchOverride(first, { styling: { corners: 'straight' } });
    assert.deepEqual(second, { title: 'V2', styling: { theme: 'bold', corners: 'straight' } });
    assert.deepEqual(patchOverride(second, { title: null, styling: { theme: null } }), { styling: { corners: 'straight' } });
    assert.deepEqual(patchOverride(second, { title: null, styling: { theme: null, corners: null } }), {});
    assert.deepEqual(first, { title: 'V2', styling: { theme: 'bold' } }, 'a patch does not change the override it starts from');
  });
});

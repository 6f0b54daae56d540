import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { isSpecEmoji, openApiToJsonSchema } from '../../../test/e2e/spec-validator.ts';
import { checkCustomization, defaultCustomization, type CustomizationValue } from './customization-schema.ts';

/** The official 0.143.2 SiteCustomizationSettings, loaded as the e2e suite loads the spec. */
const official = (() => {
  const file = createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.json');
  const document = openApiToJsonSchema(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('emoji', { type: 'string', validate: isSpecEmoji });
  ajv.addSchema({ ...document, $id: 'spec' });
  return ajv.compile({ $ref: 'spec#/components/schemas/SiteCustomizationSettings' });
})();

function customized(change: (value: CustomizationValue) => void): CustomizationValue {
  const value = structuredClone(defaultCustomization({ title: 'Developer docs' }));
  change(value);
  return value;
}

function refusal(value: unknown): string {
  const result = checkCustomization(value, 'body');
  assert.equal(result.ok, false, `expected a refusal of ${JSON.stringify(value).slice(0, 200)}`);
  return (result as { message: string }).message;
}

describe('defaultCustomization', () => {
  it('is valid for our schema and for the official spec', () => {
    const value = defaultCustomization({ title: 'Developer docs' });
    assert.deepEqual(checkCustomization(value), { ok: true });
    assert.equal(official(value), true, JSON.stringify(official.errors));
    assert.equal(value.title, 'Developer docs');
  });

  it('leaves out a title the customization cannot hold', () => {
    const value = defaultCustomization({ title: 'D' });
    assert.equal('title' in value, false);
    assert.equal(official(value), true, JSON.stringify(official.errors));
    assert.equal('title' in defaultCustomization({ title: 'x'.repeat(129) }), false);
  });
});

describe('checkCustomization', () => {
  it('accepts what the official spec accepts', () => {
    const rich = customized((value) => {
      value.styling.tint = { color: { light: '#fff', dark: '#000000' } };
      value.styling.font = { id: 'f1', custom: true, fontFamily: 'Open Sans', fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.example.com/a.woff2', format: 'woff2' }] }] };
      value.favicon = { emoji: '🎉' };
      value.header.logo = { light: 'https://example.com/l.png', dark: 'https://example.com/d.png' };
      value.header.links = [
        { title: 'Home', to: { kind: 'url', url: 'https://example.com' }, links: [], style: 'button-primary', condition: 'visitor.claims.unsigned.isBetaUser == true' },
        { title: 'Menu', to: null, links: [{ title: 'Guide', to: { kind: 'page', page: 'p1' } }] },
      ];
      value.footer = { groups: [{ title: 'More', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://blog.example.com' } }] }], copyright: '© Example' };
      value.announcement = { enabled: true, message: 'New release', style: 'info', link: { title: 'Read', to: { kind: 'file', file: 'f1' } } };
      value.privacyPolicy = { url: 'https://example.com/privacy' };
    });
    assert.deepEqual(checkCustomization(rich), { ok: true });
    assert.equal(official(rich), true, JSON.stringify(official.errors));
  });

  it('names a missing required field', () => {
    assert.equal(refusal(customized((value) => delete (value as Partial<CustomizationValue>).pageActions)), 'body/pageActions: is required');
    assert.equal(refusal(customized((value) => delete (value.styling as Partial<CustomizationValue['styling']>).primaryColor)), 'body/styling/primaryColor: is required');
  });

  it('names a bad color, enum value or length', () => {
    assert.match(refusal(customized((value) => (value.styling.primaryColor.light = 'blue'))), /^body\/styling\/primaryColor\/light: must match pattern/);
    assert.match(refusal(customized((value) => ((value.styling as { theme: string }).theme = 'neon'))), /^body\/styling\/theme: must be equal to one of the allowed values/);
    assert.match(refusal(customized((value) => (value.title = 'x'))), /^body\/title: must NOT have fewer than 2 characters/);
    assert.match(refusal(customized((value) => (value.footer.copyright = 'c'.repeat(301)))), /^body\/footer\/copyright: /);
    assert.match(refusal(customized((value) => ((value.styling as { font: unknown }).font = 'ComicSans'))), /^body\/styling\/font: /);
  });

  it('judges types strictly, as request bodies are', () => {
    assert.match(refusal(customized((value) => ((value.pdf as { enabled: unknown }).enabled = 'true'))), /^body\/pdf\/enabled: must be boolean/);
  });

  it('refuses a bad favicon instead of emptying it', () => {
    const bad = customized((value) => (value.favicon = { icon: { light: 'not a url', dark: 'https://example.com/d.png' } }));
    assert.match(refusal(bad), /^body\/favicon/);
    assert.deepEqual((bad.favicon as { icon: unknown }).icon, { light: 'not a url', dark: 'https://example.com/d.png' }, 'the value is not changed');
    const both = customized((value) => (value.favicon = { icon: { light: 'https://a.example/i.png', dark: 'https://a.example/i.png' }, emoji: '🎉' } as CustomizationValue['favicon']));
    assert.equal(refusal(both), 'body/favicon: must be either an icon or an emoji, not both');
    assert.equal(official(both), false);
  });

  it('refuses a header link whose condition cannot be evaluated', () => {
    const value = customized((settings) => (settings.header.links = [{ title: 'Beta', to: null, links: [], condition: 'visitor.claims.x = 1' }]));
    assert.equal(refusal(value), 'body/header/links/0/condition: unexpected "=" at character 17');
  });

  it('refuses what is not an object', () => {
    assert.equal(refusal(null), 'body: must be a JSON object');
    assert.equal(refusal([]), 'body: must be a JSON object');
    assert.equal(refusal('x'), 'body: must be a JSON object');
    assert.deepEqual(checkCustomization(5), { ok: false, message: 'customization: must be a JSON object' });
  });

  it('does not fill defaults into the value it checks', () => {
    const value = customized((settings) => delete (settings.insights as { trackingCookie?: boolean }).trackingCookie);
    checkCustomization(value);
    assert.deepEqual(value.insights, {});
  });
});

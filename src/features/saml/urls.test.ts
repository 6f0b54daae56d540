import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Config } from '../../config.ts';
import { checkSigningCertificate } from './certificate.ts';
import { makeCertificate } from './idp.test-support.ts';
import { serviceUrls } from './urls.ts';

const config = { publicUrl: 'https://docs.example.com' } as Config;

describe('the SAML service URLs', () => {
  test('service URLs are built from PUBLIC_URL and the provider id', () => {
    assert.deepEqual(serviceUrls(config, 'p1'), {
      entityID: 'https://docs.example.com/sso/saml/p1/metadata',
      acsURL: 'https://docs.example.com/sso/saml/p1/acs',
      startURL: 'https://docs.example.com/sso/saml/p1/start',
      finishURL: 'https://docs.example.com/sso/saml/p1/finish',
    });
  });
});

describe('the signing certificate', () => {
  const now = new Date();
  test('a valid PEM certificate is kept, in canonical form', async () => {
    const { certificate } = await makeCertificate();
    const checked = checkSigningCertificate(`\n${certificate}\n`, now);
    assert.ok('pem' in checked);
    assert.match(checked.pem, /^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----$/);
  });
  test('bare base64, as identity providers show it, is accepted', async () => {
    const { certificate } = await makeCertificate();
    const bare = certificate.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    assert.ok('pem' in checkSigningCertificate(bare, now));
  });
  test('garbage, an expired and a future certificate are refused with the reason', async () => {
    assert.deepEqual(checkSigningCertificate('hello', now), { problem: 'is not a PEM X.509 certificate' });
    const expired = await makeCertificate({ notBefore: new Date(now.getTime() - 2e10), notAfter: new Date(now.getTime() - 1e9) });
    assert.match((checkSigningCertificate(expired.certificate, now) as { problem: string }).problem, /^expired on /);
    const future = await makeCertificate({ notBefore: new Date(now.getTime() + 1e9), notAfter: new Date(now.getTime() + 2e10) });
    assert.match((checkSigningCertificate(future.certificate, now) as { problem: string }).problem, /^is not valid before /);
  });
});

import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';

/*
 * A test identity provider: a key pair and a self-signed certificate made in the test, and SAML responses
 * built and signed with xml-crypto (the XML-signature library node-saml itself verifies with). Every refusal
 * test changes one thing of an otherwise valid response.
 */

export interface TestIdp {
  entityID: string;
  ssoURL: string;
  certificate: string;
  privateKey: string;
}

/**
 * A certificate valid from `notBefore` to `notAfter` and its private key; by default valid for years around now,
 * so that both the test servers' manual clock and the real clock node-saml reads fall inside.
 */
export async function makeCertificate(options: { notBefore?: Date; notAfter?: Date; name?: string } = {}): Promise<{ certificate: string; privateKey: string }> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - 3 * 365 * 24 * 3600_000);
  cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + 3 * 365 * 24 * 3600_000);
  const subject = [{ name: 'commonName', value: options.name ?? 'Test IdP' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { certificate: forge.pki.certificateToPem(cert), privateKey: keyPem };
}

export async function makeIdp(name = 'idp'): Promise<TestIdp> {
  const { certificate, privateKey } = await makeCertificate({ name });
  return { entityID: `https://${name}.example.com/saml`, ssoURL: `https://${name}.example.com/sso`, certificate, privateKey };
}

/** A private key that is not the IdP's: what a forger holds. */
export function otherPrivateKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** The ID of the AuthnRequest in an identity provider URL our start route redirected to (HTTP-Redirect binding). */
export function authnRequestOf(location: string): { id: string; xml: string; relayState: string | null } {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)![1]!;
  return { id, xml, relayState: url.searchParams.get('RelayState') };
}

export interface ResponseOptions {
  idp: TestIdp;
  acsURL: string;
  audience: string;
  inResponseTo: string;
  email: string;
  destination?: string;
  assertionId?: string;
  /** Validity window of the assertion; default: from a minute ago to five minutes from now (real time). */
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** Signs with this key instead of the IdP's (a forgery). */
  signingKey?: string;
  attributes?: Record<string, string>;
}

const esc = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A base64 SAML Response as an identity provider posts it, its assertion signed (enveloped, exclusive c14n, RSA-SHA256). */
export function samlResponse(o: ResponseOptions): string {
  const now = new Date();
  const notBefore = (o.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const assertionId = o.assertionId ?? `_a${randomUUID()}`;
  const attributes = Object.entries({ email: o.email, ...o.attributes })
    .map(([name, value]) => `<saml:Attribute Name="${esc(name)}"><saml:AttributeValue>${esc(value)}</saml:AttributeValue></saml:Attribute>`)
    .join('');
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${esc(assertionId)}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${esc(o.idp.entityID)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${esc(o.inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(o.acsURL)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
    `</saml:Assertion>`;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${esc(o.destination ?? o.acsURL)}" InResponseTo="${esc(o.inResponseTo)}">` +
    `<saml:Issuer>${esc(o.idp.entityID)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`;
  const signer = new SignedXml({
    privateKey: o.signingKey ?? o.idp.privateKey,
    publicCert: o.idp.certificate,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  signer.computeSignature(response, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  return Buffer.from(signer.getSignedXml()).toString('base64');
}

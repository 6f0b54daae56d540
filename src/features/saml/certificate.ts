import { X509Certificate } from 'node:crypto';

/**
 * A PEM X.509 certificate checked as the identity provider's signing certificate: it must parse and be valid
 * now. Returns the certificate in a canonical PEM form, or why it is refused (the caller names the field).
 */
export function checkSigningCertificate(pem: string, now: Date): { pem: string } | { problem: string } {
  const text = pem.trim();
  // Identity providers often show the certificate as bare base64 (their metadata's X509Certificate element).
  const armored = text.startsWith('-----BEGIN') ? text : `-----BEGIN CERTIFICATE-----\n${text.replace(/\s+/g, '')}\n-----END CERTIFICATE-----`;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(armored);
  } catch {
    return { problem: 'is not a PEM X.509 certificate' };
  }
  if (now < new Date(cert.validFrom)) return { problem: `is not valid before ${new Date(cert.validFrom).toISOString()}` };
  if (now > new Date(cert.validTo)) return { problem: `expired on ${new Date(cert.validTo).toISOString()}` };
  return { pem: cert.toString().trim() };
}

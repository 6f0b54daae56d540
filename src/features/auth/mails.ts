import type { Config } from '../../config.ts';
import type { Mail } from '../../platform/mail.ts';

const until = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function invitationMail(config: Config, to: string, organization: string, link: { url: string; expiresAt: string }): Mail {
  return {
    to,
    subject: `You are invited to ${organization} on Quire`,
    text: [
      `You are invited to join ${organization} on Quire (${config.publicUrl}).`,
      '',
      'Open this link to choose your password and sign in:',
      link.url,
      '',
      `The link works once, until ${until(link.expiresAt)}.`,
    ].join('\n'),
  };
}

export function resetMail(config: Config, to: string, link: { url: string; expiresAt: string }): Mail {
  return {
    to,
    subject: 'Reset your Quire password',
    text: [
      `Someone asked to reset the password of ${to} on Quire (${config.publicUrl}).`,
      '',
      'Open this link to choose a new password:',
      link.url,
      '',
      `The link works once, until ${until(link.expiresAt)}. If you did not ask for it, ignore this mail: your password stays as it is.`,
    ].join('\n'),
  };
}

export function verificationMail(config: Config, to: string, link: { url: string; expiresAt: string }): Mail {
  return {
    to,
    subject: 'Confirm your e-mail address on Quire',
    text: [
      `An account was created with ${to} on Quire (${config.publicUrl}).`,
      '',
      'Open this link to confirm the address is yours and choose your password:',
      link.url,
      '',
      `The link works once, until ${until(link.expiresAt)}. Until then, invitations sent to ${to} wait. If you did not create this account, open the link anyway: choosing a password there makes the account yours and signs out whoever created it.`,
    ].join('\n'),
  };
}

import { badRequest } from '../../platform/errors.ts';

// A module of its own, light to load: the command line checks an address before it loads anything else.
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The address as stored (trimmed, lower case); refused when it is not one. */
export function normalizeEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed)) throw badRequest(`"${email}" is not an e-mail address`);
  return trimmed;
}

/**
 * The role lattice: read < comment < edit < review < create < admin. Pure; every permission in the API is
 * derived from a role computed here and in levels.ts.
 */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** What a space or collection gives organization members without a grant. */
export type DefaultLevel = Role | null | 'inherit';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function rank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0;
}

/** True when `role` is `min` or above it in the lattice. */
export function atLeast(role: Role | null | undefined, min: Role): boolean {
  return rank(role) >= rank(min);
}

/** The highest of the given roles; null when none is given. */
export function highest(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (rank(role) > rank(best)) best = role ?? null;
  return best;
}

export function parseDefaultLevel(value: string | null): DefaultLevel {
  if (value === null || value === 'inherit' || isRole(value)) return value;
  throw new Error(`invalid default level "${value}" in the database`);
}

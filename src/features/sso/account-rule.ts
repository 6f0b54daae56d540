/**
 * Which account an organization's identity provider may sign in, for a person it vouches for: the rule that
 * keeps one organization's provider from signing in another organization's people. A provider proves who
 * someone is to its own organization only; it never signs in an account merely because the e-mail matches.
 * Modelled on the account-linking rules of mature identity platforms (link by e-mail only for verified
 * domains, otherwise the signed-in owner links).
 */
export type ProviderAccount =
  /** The provider's own identity of an account (it created the account, or the account was linked to it). */
  | { kind: 'identity'; userId: string }
  /** No account has the address: the provider creates one, its own. */
  | { kind: 'create'; emailVerified: boolean }
  /**
   * An account becomes the provider's: its owner, signed in, asked for the link; or the provider's organization
   * verified the address's domain. `claim`: the address was not proven before, so whatever credentials the
   * account holds were set by someone who never proved it; the provider's proof replaces them.
   */
  | { kind: 'link'; userId: string; origin: 'linked' | 'domain'; claim: boolean }
  | { kind: 'refuse'; reason: 'account-exists' | 'linked-elsewhere' };

export interface ProviderAnswer {
  /** The account the provider's subject is linked to, if any. */
  identityUserId: string | null;
  /** The signed-in person who started this sign-in to link the provider to their own account. */
  linkUserId: string | null;
  /** The account that has the e-mail address the provider gave, if any. */
  existing: { id: string; emailVerified: boolean } | null;
  /** Whether the provider's organization verified the domain of that e-mail address. */
  domainVerified: boolean;
}

export function providerAccount(answer: ProviderAnswer): ProviderAccount {
  if (answer.linkUserId !== null) {
    if (answer.identityUserId !== null && answer.identityUserId !== answer.linkUserId) return { kind: 'refuse', reason: 'linked-elsewhere' };
    if (answer.identityUserId === answer.linkUserId) return { kind: 'identity', userId: answer.linkUserId };
    return { kind: 'link', userId: answer.linkUserId, origin: 'linked', claim: false };
  }
  if (answer.identityUserId !== null) return { kind: 'identity', userId: answer.identityUserId };
  if (!answer.existing) return { kind: 'create', emailVerified: answer.domainVerified };
  if (answer.domainVerified) return { kind: 'link', userId: answer.existing.id, origin: 'domain', claim: !answer.existing.emailVerified };
  return { kind: 'refuse', reason: 'account-exists' };
}

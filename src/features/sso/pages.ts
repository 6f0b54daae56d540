import { escapeAttribute, escapeText } from 'entities';

// The plain pages a browser sees around single sign-on (SAML and OpenID Connect): no app, no script.

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeText(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2328}h1{font-size:1.4rem}button{font:inherit;padding:.4rem .9rem}</style>
</head><body><main>${body}</main></body></html>`;
}

/** What a browser sees when sign-in is refused: what went wrong, no session, and what the person can do. */
export function signInErrorPage(message: string, action?: { label: string; href: string }): string {
  const next = action
    ? `<p><a href="${escapeAttribute(action.href)}">${escapeText(action.label)}</a></p>`
    : "<p>No session was opened. Try signing in again from your organization's sign-in link, or ask an administrator.</p>";
  return page('Sign-in failed', `<h1>Sign-in failed</h1><p>${escapeText(message)}</p>${next}`);
}

/** A mailed domain verification link, opened: confirming is a button, so that a link scanner confirms nothing. */
export function domainConfirmPage(domain: string): string {
  return page(
    'Verify a domain',
    `<h1>Verify ${escapeText(domain)}</h1><p>An organization on this server asks to verify that it holds <strong>${escapeText(domain)}</strong>. Its single sign-on will then sign in accounts whose e-mail address is of this domain.</p>
<form method="post"><button type="submit">Verify ${escapeText(domain)}</button></form>`,
  );
}

export function domainVerifiedPage(domain: string): string {
  return page('Domain verified', `<h1>Domain verified</h1><p>${escapeText(domain)} is now a verified domain of the organization.</p>`);
}

/** Who is signed in, with a way out (a form: the CSRF token travels as a field, as a form cannot set headers). */
export function sessionPage(who: { name: string; email: string | null; organization: string }, csrfToken: string): string {
  return page(
    'Signed in',
    `<h1>Signed in</h1><p>You are signed in as <strong>${escapeText(who.name)}</strong>${who.email ? ` (${escapeText(who.email)})` : ''} through ${escapeText(who.organization)}.</p>
<form method="post" action="/sso/signout"><input type="hidden" name="csrf" value="${escapeAttribute(csrfToken)}"><button type="submit">Sign out</button></form>`,
  );
}

export function signedOutPage(): string {
  return page('Signed out', '<h1>Signed out</h1><p>Your session has ended.</p>');
}

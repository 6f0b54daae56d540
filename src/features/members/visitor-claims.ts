import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { AppContext } from '../../platform/context.ts';
import { serverSigningKey } from '../../platform/signing-key.ts';
import type { Role } from '../access/roles.ts';

/** How long a member's visitor claims are accepted. */
const LIFETIME_SECONDS = 60 * 60;
const SECRET_NAME = 'visitor-claims';

export interface VisitorClaims {
  userId: string;
  email: string | null;
  organizationId: string;
  role: Role | null;
}

const signingKey = (ctx: AppContext): Promise<Uint8Array> => serverSigningKey(ctx, SECRET_NAME);

/**
 * A JWT (HS256) carrying a member's claims, signed with the server's visitor-claims secret, so that a site with
 * visitor authentication served by this server (any process sharing the database) can trust who the reader is.
 */
export async function signVisitorClaims(ctx: AppContext, claims: VisitorClaims): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ email: claims.email, organization: claims.organizationId, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ctx.config.publicUrl)
    .setAudience(claims.organizationId)
    .setIssuedAt(now)
    .setExpirationTime(now + LIFETIME_SECONDS)
    .sign(await signingKey(ctx));
}

/** The claims of a token signed by this server for `organizationId`, or null when it is not valid (any reason). */
export async function verifyVisitorClaims(ctx: AppContext, token: string, organizationId: string): Promise<(JWTPayload & { organization: string }) | null> {
  try {
    const { payload } = await jwtVerify(token, await signingKey(ctx), {
      algorithms: ['HS256'],
      issuer: ctx.config.publicUrl,
      audience: organizationId,
      currentDate: ctx.clock.now(),
    });
    return payload.organization === organizationId ? (payload as JWTPayload & { organization: string }) : null;
  } catch {
    return null;
  }
}

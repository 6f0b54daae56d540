import { Type } from 'typebox';
import { RoleOrGuest } from '../access/schemas.ts';

/** GitBook's `InviteLinkToOrganization`: a link anyone with an account joins the organization by, with its role. */
export const InviteLinkToOrganization = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  role: RoleOrGuest,
  redundant: Type.Boolean({ description: 'Whether the caller already has at least this role in the organization' }),
});

/** The organization variant of the official `CreateOrganizationInvite` (invites to a space or collection are not supported). */
export const CreateOrganizationInviteBody = Type.Object({ role: RoleOrGuest });
export const UpdateOrganizationInviteBody = Type.Object({
  role: Type.Optional(RoleOrGuest),
  level: Type.Optional(RoleOrGuest),
});

export const InviteParams = Type.Object({ organizationId: Type.String({ minLength: 1 }), inviteId: Type.String({ minLength: 1, maxLength: 100 }) });

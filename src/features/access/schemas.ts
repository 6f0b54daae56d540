import { Type } from 'typebox';
import { literalUnion } from '../../platform/schemas.ts';
import { ROLES } from './roles.ts';

// The role schemas are derived from the lattice (roles.ts), so the list of roles is written once.
export const Role = literalUnion([...ROLES].reverse(), { description: 'Role of a member: admin > create > review > edit > comment > read' });
export const RoleOrGuest = Type.Union([Role, Type.Null()], { description: 'A role, or null for guests' });
export const DefaultLevel = Type.Union([Role, Type.Null(), Type.Literal('inherit')], {
  description: 'What organization members get without a grant: a role, null for nothing, or inherit from the parent',
});

import type { Executor } from '../../db/types.ts';
import type { AppContext } from '../../platform/context.ts';
import { isoNow } from '../../platform/clock.ts';
import { recordEvent } from '../../platform/events.ts';
import type { Role } from '../access/roles.ts';
import { findMember, insertMemberRow, setMemberRole } from './store.ts';

/** Makes a user a member of an organization with a role (null: guest), or changes the role of a member. */
export async function addOrUpdateMember(ctx: AppContext, db: Executor, organizationId: string, userId: string, role: Role | null): Promise<'added' | 'updated'> {
  const existing = await findMember(db, organizationId, userId);
  if (existing) {
    await setMemberRole(db, organizationId, userId, role);
    return 'updated';
  }
  await insertMemberRow(db, { organization_id: organizationId, user_id: userId, role, joined_at: isoNow(ctx.clock) });
  await recordEvent(db, ctx.clock, 'member_joined', organizationId, { userId, role });
  return 'added';
}

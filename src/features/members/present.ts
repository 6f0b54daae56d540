import type { Config } from '../../config.ts';
import { presentUser } from '../users/present.ts';
import type { MemberRow } from './store.ts';

export interface MemberCounts {
  spaces: number;
  teams: number;
}

export function presentMember(config: Config, row: MemberRow, counts: MemberCounts) {
  return {
    object: 'member' as const,
    id: row.user_id,
    role: row.role,
    user: presentUser(config, { id: row.user_id, display_name: row.display_name, email: row.email, photo_url: row.photo_url }),
    disabled: row.disabled === 1,
    joinedAt: row.joined_at,
    ...(row.last_seen_at ? { lastSeenAt: row.last_seen_at } : {}),
    sso: row.sso === 1,
    spaces: counts.spaces,
    teams: counts.teams,
  };
}

import type { TeamRow } from './store.ts';

export interface TeamCounts {
  members: number;
  spaces: number;
}

export function presentTeam(row: TeamRow, counts: TeamCounts, permissions: { admin: boolean; view: boolean }) {
  return {
    object: 'team' as const,
    id: row.id,
    title: row.title,
    members: counts.members,
    spaces: counts.spaces,
    createdAt: row.created_at,
    permissions,
  };
}

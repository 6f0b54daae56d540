import { NavLink } from 'react-router';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import type { Space } from '../../api/types.ts';
import { Skeleton } from '../../ui/states.tsx';

/** A space's title and its tabs (its pages, its change requests). */
export function SpaceHeader({ spaceId, space }: { spaceId: string; space: Space | undefined }) {
  const emoji = emojiCharacter(space?.emoji);
  return (
    <header className="space-header">
      {space ? (
        <p className="space-title">
          {emoji ? <span aria-hidden="true">{emoji} </span> : null}
          {space.title}
        </p>
      ) : (
        <Skeleton lines={1} label="Loading the space" />
      )}
      <nav aria-label="Space" className="space-tabs">
        <NavLink to={space ? `/o/${space.organization}/s/${spaceId}` : `/s/${spaceId}/`} end>Pages</NavLink>
        <NavLink to={`/s/${spaceId}/~/changes`}>Change requests</NavLink>
        <NavLink to={`/s/${spaceId}/~/history`}>History</NavLink>
        <NavLink to={`/s/${spaceId}/~/git`}>Git Sync</NavLink>
      </nav>
    </header>
  );
}

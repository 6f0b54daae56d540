import type { Config } from '../../config.ts';
import { apiUrl } from '../../platform/urls.ts';
import type { UserRow } from './store.ts';

export function presentUser(config: Config, user: Pick<UserRow, 'id' | 'display_name' | 'email' | 'photo_url'>) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.display_name,
    ...(user.email ? { email: user.email } : {}),
    ...(user.photo_url ? { photoURL: user.photo_url } : {}),
    urls: { location: apiUrl(config, `/users/${user.id}`) },
  };
}

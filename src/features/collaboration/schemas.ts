import { Type } from 'typebox';
import { User } from '../users/schemas.ts';

/** A person with a page open in an editor; the User shape without its `$id`, as one answer names many users. */
const PageOpener = Type.Object({
  user: Type.Object(User.properties),
  access: Type.Union([Type.Literal('edit'), Type.Literal('view')], { description: '`edit`: editing the page; `view`: following it read-only' }),
});

/** getChangeRequestPresence (an extension): who has which page of a change request open in an editor now. */
export const ChangeRequestPresence = Type.Object({
  object: Type.Literal('change-request-presence'),
  items: Type.Array(
    Type.Object({
      page: Type.Object({ id: Type.String(), title: Type.String() }),
      people: Type.Array(PageOpener),
    }),
  ),
});

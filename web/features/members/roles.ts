/** The organization roles, most to least (src/features/access/roles.ts), and "guest" (no role). */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type RoleChoice = (typeof ROLES)[number] | 'guest';
export const roleOf = (choice: RoleChoice) => (choice === 'guest' ? null : choice);
export const choiceOf = (role: string | null | undefined): RoleChoice => (role ? (role as RoleChoice) : 'guest');
export const ROLE_CHOICES: RoleChoice[] = [...ROLES, 'guest'];
/** The choices as the kit's Select lists them. */
export const ROLE_OPTIONS = ROLE_CHOICES.map((role) => ({ value: role, label: role }));

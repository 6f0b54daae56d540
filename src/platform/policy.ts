import { forbidden } from './errors.ts';

/**
 * One rule of a resource's policy: `true` when the caller may, otherwise why not, worded to follow the action
 * ("needs the admin role on the space"). The reason ends the 403's message: "Updating a space needs the admin
 * role on the space".
 */
export type Rule<Subject> = (subject: Subject) => true | string;

/**
 * A resource's list of rules (Outline's cancan, server/policies/): the same list is serialized as the
 * `permissions` object of the resource's API responses (`flags`) and enforced by its services (`assert`), so
 * a flag cannot be shown without being enforced, or enforced without being shown. `Subject` is what the rules
 * decide on: the caller's role on the resource and whatever of the resource matters (a space's edit mode, a
 * comment's author).
 */
export class Policy<Subject, Action extends string> {
  constructor(private readonly rules: Readonly<Record<Action, Rule<Subject>>>) {}

  can(subject: Subject, action: Action): boolean {
    return this.rules[action](subject) === true;
  }

  /** Every rule's answer, in the order the rules are listed: the `permissions` object of a response. */
  flags(subject: Subject): Record<Action, boolean> {
    const flags = {} as Record<Action, boolean>;
    for (const action of Object.keys(this.rules) as Action[]) flags[action] = this.can(subject, action);
    return flags;
  }

  /** Throws 403 "<doing> <reason>" when the rule refuses; `doing` names the operation ("Updating a space"). */
  assert(subject: Subject, action: Action, doing: string): void {
    const answer = this.rules[action](subject);
    if (answer !== true) throw forbidden(`${doing} ${answer}`);
  }
}

/** A rule from a condition and the reason given when it does not hold. */
export function allowIf<Subject>(condition: (subject: Subject) => boolean, reason: string): Rule<Subject> {
  return (subject) => condition(subject) || reason;
}

/** A flag the server shows but never grants (a feature it does not have). */
export const never: Rule<unknown> = () => 'is not available on this server';

/** A rule that holds when every one of `rules` does; the first refusal is the reason. */
export function allOf<Subject>(...rules: Rule<Subject>[]): Rule<Subject> {
  return (subject) => {
    for (const rule of rules) {
      const answer = rule(subject);
      if (answer !== true) return answer;
    }
    return true;
  };
}

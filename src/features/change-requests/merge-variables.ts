import { DEFAULT_LABELS, mergeValue, quoted, sentence, type SideLabels } from './merge-values.ts';

/**
 * - `value`: both sides set the variable to different values (or both defined it, differently);
 * - `delete-modify`: removed on ours, changed on theirs; `modify-delete`: changed on ours, removed on theirs.
 */
export interface VariableMergeConflict {
  name: string;
  kind: 'value' | 'delete-modify' | 'modify-delete';
  message: string;
  /** Each side's value; absent where the variable is not defined. */
  base?: string;
  ours?: string;
  theirs?: string;
}

/** When `conflicts` is not empty, `variables` is ours unchanged: there is nothing to write. */
export interface VariableMergeResult {
  variables: Record<string, string>;
  conflicts: VariableMergeConflict[];
}

/** Three-way merge of a revision's variables, each variable on its own. */
export function mergeVariables(
  base: Readonly<Record<string, string>>,
  ours: Readonly<Record<string, string>>,
  theirs: Readonly<Record<string, string>>,
  labels: Partial<SideLabels> = {},
): VariableMergeResult {
  const { ours: O, theirs: T } = { ...DEFAULT_LABELS, ...labels };
  const variables: Record<string, string> = {};
  const conflicts: VariableMergeConflict[] = [];
  const valueOf = (record: Readonly<Record<string, string>>, name: string) => (Object.hasOwn(record, name) ? record[name] : undefined);
  for (const name of new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])) {
    const [b, o, t] = [valueOf(base, name), valueOf(ours, name), valueOf(theirs, name)];
    const result = mergeValue(b, o, t);
    if (!result.conflict) {
      if (result.value !== undefined) variables[name] = result.value;
      continue;
    }
    const variable = quoted(name);
    const values = { ...(b !== undefined && { base: b }), ...(o !== undefined && { ours: o }), ...(t !== undefined && { theirs: t }) };
    if (o === undefined) conflicts.push({ name, kind: 'delete-modify', message: sentence(`${O} removed the variable ${variable} and ${T} set it to ${quoted(t!)}.`), ...values });
    else if (t === undefined) conflicts.push({ name, kind: 'modify-delete', message: sentence(`${O} set the variable ${variable} to ${quoted(o)} and ${T} removed it.`), ...values });
    else conflicts.push({ name, kind: 'value', message: sentence(`${O} set the variable ${variable} to ${quoted(o)} and ${T} to ${quoted(t)}.`), ...values });
  }
  return conflicts.length > 0 ? { variables: { ...ours }, conflicts } : { variables, conflicts };
}

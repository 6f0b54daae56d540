import { DEFAULT_LABELS, mergeValue, quoted, sameValue, sentence, type SideLabels } from './merge-values.ts';

/** What the merge needs of a file: an id and a name; every other field is its content (type, size, blob, …). */
export interface MergeableFile {
  id: string;
  name: string;
}

/** Like pages: versions of the files changed on either side only. */
export interface FileMergeInput<F extends MergeableFile> {
  /** Versions in the common ancestor of every file changed on either side (absent: it did not exist). */
  base: ReadonlyMap<string, F>;
  /** Ours' current version of each file changed on ours (null: deleted). */
  ours: ReadonlyMap<string, F | null>;
  /** Theirs' version of each file changed on theirs (null: deleted). */
  theirs: ReadonlyMap<string, F | null>;
}

/**
 * - `rename`: both sides renamed the file, differently;
 * - `content`: both sides replaced the file's content, differently;
 * - `delete-modify`: deleted on ours, changed on theirs; `modify-delete`: changed on ours, deleted on theirs.
 */
export interface FileMergeConflict {
  fileId: string;
  kind: 'rename' | 'content' | 'delete-modify' | 'modify-delete';
  message: string;
  base?: unknown;
  ours?: unknown;
  theirs?: unknown;
}

/** When `conflicts` is not empty, `files` is empty: there is nothing to write. */
export interface FileMergeResult<F extends MergeableFile> {
  /** What to write on ours: new or updated versions, null to delete. Files ours already has as merged are absent. */
  files: Map<string, F | null>;
  conflicts: FileMergeConflict[];
}

/** A file's fields other than its identity, its name and its creation time. */
function contentOf(file: MergeableFile): Record<string, unknown> {
  const { id: _id, name: _name, createdAt: _createdAt, created_at: _created_at, ...content } = file as MergeableFile & Record<string, unknown>;
  return content;
}

/** Three-way merge of a revision's files by id: the name and the content are merged as two fields. */
export function mergeFiles<F extends MergeableFile>(input: FileMergeInput<F>, labels: Partial<SideLabels> = {}): FileMergeResult<F> {
  const { ours: O, theirs: T } = { ...DEFAULT_LABELS, ...labels };
  const state = (side: 'ours' | 'theirs', id: string): F | null => {
    const own = input[side];
    return own.has(id) ? own.get(id)! : (input.base.get(id) ?? null);
  };
  const files = new Map<string, F | null>();
  const conflicts: FileMergeConflict[] = [];
  for (const id of new Set([...input.ours.keys(), ...input.theirs.keys()])) {
    const base = input.base.get(id) ?? null;
    const ours = state('ours', id);
    const theirs = state('theirs', id);
    const values = { base, ours, theirs };
    if (sameValue(theirs, base) || sameValue(ours, theirs)) continue;
    if (sameValue(ours, base)) {
      files.set(id, theirs);
      continue;
    }
    if (ours === null || theirs === null) {
      const kept = (ours ?? theirs)!;
      const [deleter, editor] = ours === null ? [O, T] : [T, O];
      conflicts.push({
        fileId: id,
        kind: ours === null ? 'delete-modify' : 'modify-delete',
        message: sentence(`${deleter} deleted the file ${quoted(kept.name)} and ${editor} changed it.`),
        ...values,
      });
      continue;
    }
    const name = mergeValue(base?.name, ours.name, theirs.name);
    const content = mergeValue(base && contentOf(base), contentOf(ours), contentOf(theirs));
    const known = quoted(base?.name ?? ours.name);
    if (name.conflict) {
      conflicts.push({ fileId: id, kind: 'rename', message: sentence(`${O} renamed the file ${known} to ${quoted(ours.name)} and ${T} to ${quoted(theirs.name)}.`), ...values });
    }
    if (content.conflict) {
      conflicts.push({ fileId: id, kind: 'content', message: sentence(`${O} and ${T} both replaced the content of the file ${known}.`), ...values });
    }
    if (name.conflict || content.conflict) continue;
    const merged = { ...ours, ...content.value, name: name.value } as F;
    if (!sameValue(merged, ours)) files.set(id, merged);
  }
  return conflicts.length > 0 ? { files: new Map(), conflicts } : { files, conflicts };
}

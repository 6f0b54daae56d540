/** A branch as a person types it ("main", "refs/heads/main") as the ref Git Sync takes, and back. */
export function refOfBranch(branch: string): string {
  const name = branch.trim();
  return name.startsWith('refs/') ? name : `refs/heads/${name}`;
}

export function branchOfRef(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/** Whether an operation's state means it is still under way (the screen reads it again until it is not). */
export const isRunning = (state: string | undefined) => state === 'running';

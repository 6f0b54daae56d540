/*
 * Push webhook payloads as each Git server sends them (trimmed of fields that only repeat these; the shapes and
 * the fields Quire reads are the servers' own, from their documentation's examples).
 */

const commit = (sha: string) => ({ id: sha, message: 'Update the reference\n', timestamp: '2026-12-02T10:00:00+00:00', author: { name: 'Dana Git', email: 'dana@example.com' } });

/** GitHub's `push` event (X-GitHub-Event: push). */
export function githubPush(branch: string, after = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432') {
  return {
    ref: `refs/heads/${branch}`,
    before: '0123456789abcdef0123456789abcdef01234567',
    after,
    created: false,
    deleted: false,
    forced: false,
    compare: `https://github.com/acme/docs/compare/0123456789ab...${after.slice(0, 12)}`,
    commits: [commit(after)],
    head_commit: commit(after),
    repository: { id: 1296269, name: 'docs', full_name: 'acme/docs', default_branch: 'main', clone_url: 'https://github.com/acme/docs.git' },
    pusher: { name: 'dana', email: 'dana@example.com' },
    sender: { login: 'dana', id: 583231, type: 'User' },
  };
}

/** GitLab's push hook (X-Gitlab-Event: Push Hook). */
export function gitlabPush(branch: string, after = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432') {
  return {
    object_kind: 'push',
    event_name: 'push',
    before: '0123456789abcdef0123456789abcdef01234567',
    after,
    ref: `refs/heads/${branch}`,
    ref_protected: true,
    checkout_sha: after,
    user_id: 4,
    user_name: 'Dana Git',
    user_username: 'dana',
    project_id: 15,
    project: { id: 15, name: 'docs', path_with_namespace: 'acme/docs', default_branch: 'main', git_http_url: 'https://gitlab.example.com/acme/docs.git' },
    commits: [{ ...commit(after), url: `https://gitlab.example.com/acme/docs/-/commit/${after}`, added: [], modified: ['reference.md'], removed: [] }],
    total_commits_count: 1,
    repository: { name: 'docs', url: 'git@gitlab.example.com:acme/docs.git', homepage: 'https://gitlab.example.com/acme/docs' },
  };
}

/** Gitea's and Forgejo's `push` event (X-Gitea-Event / X-Forgejo-Event: push). */
export function giteaPush(branch: string, after = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432') {
  return {
    ref: `refs/heads/${branch}`,
    before: '0123456789abcdef0123456789abcdef01234567',
    after,
    compare_url: `https://gitea.example.com/acme/docs/compare/0123456789ab...${after.slice(0, 12)}`,
    commits: [{ ...commit(after), url: `https://gitea.example.com/acme/docs/commit/${after}`, verification: null }],
    total_commits: 1,
    head_commit: commit(after),
    repository: { id: 1, name: 'docs', full_name: 'acme/docs', default_branch: 'main', clone_url: 'https://gitea.example.com/acme/docs.git' },
    pusher: { id: 1, login: 'dana', email: 'dana@example.com' },
    sender: { id: 1, login: 'dana' },
  };
}

/** Bitbucket Cloud's `repo:push` (X-Event-Key: repo:push). */
export function bitbucketCloudPush(branch: string, after = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432') {
  return {
    actor: { display_name: 'Dana Git', type: 'user', nickname: 'dana' },
    repository: { type: 'repository', full_name: 'acme/docs', name: 'docs', scm: 'git' },
    push: {
      changes: [
        {
          old: { type: 'branch', name: branch, target: { type: 'commit', hash: '0123456789abcdef0123456789abcdef01234567' } },
          new: { type: 'branch', name: branch, target: { type: 'commit', hash: after, message: 'Update the reference\n', author: { raw: 'Dana Git <dana@example.com>' } } },
          created: false,
          forced: false,
          closed: false,
          truncated: false,
        },
      ],
    },
  };
}

/** Bitbucket Data Center's `repo:refs_changed` (X-Event-Key: repo:refs_changed). */
export function bitbucketServerPush(branch: string, after = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432') {
  return {
    eventKey: 'repo:refs_changed',
    date: '2026-12-02T10:00:00+0000',
    actor: { name: 'dana', emailAddress: 'dana@example.com', displayName: 'Dana Git', type: 'NORMAL' },
    repository: { slug: 'docs', name: 'docs', project: { key: 'ACME', name: 'Acme' }, scmId: 'git' },
    changes: [{ ref: { id: `refs/heads/${branch}`, displayId: branch, type: 'BRANCH' }, refId: `refs/heads/${branch}`, fromHash: '0123456789abcdef0123456789abcdef01234567', toHash: after, type: 'UPDATE' }],
  };
}

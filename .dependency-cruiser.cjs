/**
 * The walls between Quire's rooms (docs/architecture.md, "Walls"), checked by `npm run lint`:
 * - no import cycles, type-only imports included (a cycle of types is still two modules that cannot be read
 *   apart);
 * - platform/ imports no feature (app.ts passes features in, e.g. the token check); db/ only the value lists
 *   its column types are made of, and the pure repair of block keys a migration runs over stored documents;
 * - the web app (web/) is a client of the public API: from src/ it imports only the pure modules it shares with
 *   the reader (the document model, its text and its markdown reader, heading anchors, emoji, safe URLs), and so reaches no database;
 * - a feature reaches another through its service.ts, policy.ts, present.ts, schemas.ts, queries.ts or a pure
 *   module, never its store.ts or another *-store.ts: stores are a feature's own. Tests and test support may
 *   build data through any store.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Modules form no cycle; move the shared part (often a type) into a module both import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-feature',
      comment: 'platform/ serves every feature and knows none; pass what it needs in from app.ts.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'db-imports-only-value-lists',
      comment: "db/ knows features only by the value lists its column types use (roles.ts, schemas.ts), and the document model's pure key repair (migration 0041).",
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/features/', pathNot: '^src/features/([^/]+/(roles|schemas)|content/document/(keys|types))[.]ts$' },
    },
    {
      name: 'no-cross-feature-store',
      comment: "Another feature's store is its own: use its service.ts or queries.ts (content: revisions.ts).",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: '[.]test[.]ts$|[.]test-support[.]ts$' },
      to: { path: '^src/features/[^/]+/(store|[a-z]+-store)[.]ts$', pathNot: '^src/features/$1/' },
    },
    {
      name: 'web-imports-only-shared-pure-modules',
      comment: 'The web app talks to the server through /v1; from src/ it shares pure modules only (list them here when one is added). Its browser tests run in Node beside a server.',
      severity: 'error',
      // A screen's browser test (*.browser.test.ts) drives a real server from Node, beside the screen it tests.
      // Its unit tests (*.test.ts) run in Node too, and may build their fixtures with the server's modules.
      from: { path: '^web/', pathNot: '[.]test[.]ts$' },
      to: { path: '^src/', pathNot: '^src/features/(content/document/(types|text|merge-blocks|editor/[a-z-]+|to-document|markdown-parser|token-tree|liquid-tags|html|html-table|cell-html|markdown-serializer|nodes|keys|digest|safe-url|reusable-blocks|table-widths|table-cards|embed-site|update-date)|collaboration/(document-name|provider-socket|collaborator|ydoc-document)|reader/(heading-anchors|emoji|math|icon-shapes|expression-value|openapi-labels)|openapi-specs/reference|adaptive/conditions|sso/return-to|content/templates)[.]ts$|^src/features/reader/assets/reader[.]css$' },
    },
    {
      name: 'web-reaches-no-database',
      comment: 'Nothing the web app imports may lead, however indirectly, to the database, a store or the server platform.',
      severity: 'error',
      from: { path: '^web/', pathNot: '[.]browser[.]test[.]ts$' },
      to: { path: '^src/(db|platform)/|store[.]ts$', reachable: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};

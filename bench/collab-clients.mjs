// The worker of bench/collab.ts: TypeScript through tsx, which a worker thread does not inherit on Node 20.
import { register } from 'tsx/esm/api';

register();
await import('./collab-clients.ts');

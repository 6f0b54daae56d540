import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.ts';

/** Every migration, in order. Names never change once released: they are recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
};

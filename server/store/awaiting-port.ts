import type { AnyStore, Store } from './open.js';

/**
 * TEMPORARY, for the merge of issue 16's branches: the functions the other branches port
 * (reads1, reads2, writes) still take a SQLite Store on this branch. The command line and the
 * server open AnyStore, and hand it on through this one greppable bridge; once those functions
 * take AnyStore, every call of awaitingPort is deleted, and this file with them. On PostgreSQL,
 * until then, such a call fails at its first SQLite-only step.
 */
export function awaitingPort(store: AnyStore): Store {
  return store as Store;
}

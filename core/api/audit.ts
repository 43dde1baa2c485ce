import type { z } from 'zod';
import type * as adminSchemas from './schemas/admin.js';
import type * as auditSchemas from './schemas/audit.js';
/** The audit trail as the API and the UI see it (GET /api/audit, docs/audit.md). */

/** Who acted: a signed-in user, an API token of a user, the command line on the database, or the server itself. */
export type AuditActorKind = (typeof auditSchemas.AUDIT_ACTOR_KINDS)[number];

/**
 * The actions recorded, each `subject.verb`. A filter on `run.` (a prefix ending in a dot)
 * matches every action of that subject. Other parts of flakeboard record their own names
 * through recordAudit (webhook.*, sso.*); docs/audit.md lists them all.
 */
export const AUDIT_ACTIONS = [
  'session.sign-in',
  'session.sign-in-failed',
  'session.sign-out',
  'run.upload',
  'run.import',
  'run.approve',
  'run.reject',
  'run.delete',
  'runs.clear',
  'runs.prune',
  'quarantine.add',
  'quarantine.remove',
  'user.add',
  'user.role',
  'user.password',
  'user.remove',
  'user.unlock',
  'token.create',
  'token.revoke',
  'setting.change',
  'webhook.create',
  'webhook.test',
  'webhook.remove',
] as const;

/** One entry: who acted (`actor`), from where (`source`), what they did, to what, and the rest. */
export type AuditEntry = z.infer<typeof auditSchemas.auditEntry>;
export type AuditPage = z.infer<typeof auditSchemas.auditPage>;
/** The filters and page of GET /api/audit. */
export type AuditQuery = z.infer<typeof auditSchemas.auditQuery>;

/** The admin settings the API reads and changes (GET and PUT /api/settings). */
export type AdminSettings = z.infer<typeof adminSchemas.adminSettings>;

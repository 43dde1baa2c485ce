/** What a route records in the audit trail: the caller as actor, the request's address as source. */
import type { FastifyRequest } from 'fastify';
import { recordAudit, type AuditActor, type AuditRecord } from './store/accounts/audit.js';
import type { AnyStore } from './store/engine/types.js';

/** The signed-in caller of a request, or the user named (a sign-in). */
export function actorOf(request: FastifyRequest): AuditActor {
  const caller = request.caller;
  if (!caller) return { kind: 'user', id: null, name: null };
  return { kind: caller.kind === 'api-token' ? 'token' : 'user', id: caller.user.id, name: caller.user.username };
}

/**
 * Records what a request did. request.ip is the client's address as far as the trusted proxies
 * tell it (app.ts trustProxy). An API token's name goes into the detail: which CI job it was.
 */
export async function auditRequest(store: AnyStore, request: FastifyRequest, entry: Omit<AuditRecord, 'source' | 'actor'> & { actor?: AuditActor }): Promise<void> {
  const caller = request.caller;
  const detail = caller?.kind === 'api-token' ? { ...entry.detail, token: caller.tokenName } : entry.detail;
  await recordAudit(store, { ...entry, actor: entry.actor ?? actorOf(request), source: request.ip, detail: detail ?? null });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminSettings } from '../../core/api/schemas/admin.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import type { AdminSettings } from '../../core/api/audit.js';
import { auditRequest } from '../audit.js';
import { readAdminSettings, writeAdminSettings } from '../store/accounts/settings.js';
import type { AnyStore } from '../store/engine/types.js';

const tags = ['Admin'];

/** The admin settings screen's reads and changes; every change is in the audit trail. */
export function registerSettingsRoutes(fastify: FastifyInstance, options: { store: AnyStore }): void {
  const { store } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Reviewers read it too: the review screen says why their own upload cannot be approved.
  app.get('/api/settings', { schema: { summary: 'The admin settings', tags, response: { 200: adminSettings } }, config: { auth: { access: 'reviewer' } } }, async (): Promise<AdminSettings> => readAdminSettings(store));

  app.put('/api/settings', { schema: { summary: 'Change the admin settings', tags, body: adminSettings, response: { 200: adminSettings, 400: errorAnswer } }, config: { auth: { access: 'admin' } } }, async (request): Promise<AdminSettings> => {
    const before = await readAdminSettings(store);
    const after: AdminSettings = { secondPersonApproval: request.body.secondPersonApproval };
    await writeAdminSettings(store, after);
    if (before.secondPersonApproval !== after.secondPersonApproval) {
      await auditRequest(store, request, { action: 'setting.change', target: { type: 'setting', id: 'secondPersonApproval', label: 'second-person approval' }, detail: { from: before.secondPersonApproval, to: after.secondPersonApproval } });
    }
    return after;
  });
}

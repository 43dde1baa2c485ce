import type { FastifyInstance } from 'fastify';
import type { AdminSettings } from '../../core/api/audit.js';
import { auditRequest } from '../audit.js';
import { readAdminSettings, writeAdminSettings } from '../store/accounts/settings.js';
import type { AnyStore } from '../store/engine/types.js';

const settingsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['secondPersonApproval'],
  properties: { secondPersonApproval: { type: 'boolean' } },
} as const;

/** The admin settings screen's reads and changes; every change is in the audit trail. */
export function registerSettingsRoutes(app: FastifyInstance, options: { store: AnyStore }): void {
  const { store } = options;
  // Reviewers read it too: the review screen says why their own upload cannot be approved.
  app.get('/api/settings', { config: { auth: { access: 'reviewer' } } }, async (): Promise<AdminSettings> => readAdminSettings(store));

  app.put<{ Body: AdminSettings }>('/api/settings', { schema: { body: settingsBody }, config: { auth: { access: 'admin' } } }, async (request): Promise<AdminSettings> => {
    const before = await readAdminSettings(store);
    const after: AdminSettings = { secondPersonApproval: request.body.secondPersonApproval };
    await writeAdminSettings(store, after);
    if (before.secondPersonApproval !== after.secondPersonApproval) {
      await auditRequest(store, request, { action: 'setting.change', target: { type: 'setting', id: 'secondPersonApproval', label: 'second-person approval' }, detail: { from: before.secondPersonApproval, to: after.secondPersonApproval } });
    }
    return after;
  });
}

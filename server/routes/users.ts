import type { FastifyInstance } from 'fastify';
import { auditRequest } from '../audit.js';
import { notFound } from '../errors.js';
import { unlockAccount } from '../store/accounts/login-failures.js';
import type { AnyStore } from '../store/engine/types.js';
import { findUser } from '../store/accounts/users.js';

export interface UserRouteOptions {
  store: AnyStore;
  now: () => number;
}

const unlockParams = {
  type: 'object',
  required: ['username'],
  properties: { username: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

/** What an admin does to accounts from the API; `flakeboard user` does the rest. */
export function registerUserRoutes(app: FastifyInstance, options: UserRouteOptions): void {
  // Admin only, from a session with its XSRF token (API tokens cannot): the authenticate hook.
  app.post<{ Params: { username: string } }>(
    '/api/users/:username/unlock',
    { schema: { params: unlockParams }, config: { auth: { access: 'admin' } } },
    async (request) => {
      const user = await findUser(options.store, request.params.username);
      if (!user) throw notFound(`User ${request.params.username}`);
      const unlockedAddresses = await unlockAccount(options.store, user.id, options.now());
      request.log.info({ user: user.username, unlockedAddresses }, 'account unlocked');
      await auditRequest(options.store, request, { action: 'user.unlock', target: { type: 'user', id: user.id, label: user.username }, detail: { unlockedAddresses } });
      return { username: user.username, unlockedAddresses };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unlockParams, unlockResponse } from '../../core/api/schemas/admin.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import { auditRequest } from '../audit.js';
import { notFound } from '../errors.js';
import { unlockAccount } from '../store/accounts/login-failures.js';
import type { AnyStore } from '../store/engine/types.js';
import { findUser } from '../store/accounts/users.js';

export interface UserRouteOptions {
  store: AnyStore;
  now: () => number;
}

/** What an admin does to accounts from the API; `flakeboard user` does the rest. */
export function registerUserRoutes(fastify: FastifyInstance, options: UserRouteOptions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Admin only, from a session with its XSRF token (API tokens cannot): the authenticate hook.
  app.post(
    '/api/users/:username/unlock',
    {
      schema: { summary: "Lift an account's locks from every address", tags: ['Admin'], params: unlockParams, response: { 200: unlockResponse, 404: errorAnswer } },
      config: { auth: { access: 'admin' } },
    },
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

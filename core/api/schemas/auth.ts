/** The sign-in calls (docs/api.md#sign-in) as Zod schemas; core/api/auth.ts infers its types from them. */
import { z } from 'zod';

export const role = z.enum(['admin', 'reviewer', 'member']);
export const user = z.object({ id: z.number(), username: z.string(), role });

export const loginRequest = z.object({ username: z.string().max(200), password: z.string().max(1024) });
export const loginResponse = z.object({
  token: z.string().describe('The bearer token of the new session'),
  sessionToken: z.string().describe('Names the session to POST /api/auth/logout (x-session-token)'),
  user,
});
export const loginFailure = z.object({ error: z.string(), attemptsRemaining: z.number() });
/** What a refused sign-in answers: loose, so an error without the count never fails its own answer. */
export const loginRefusal = z.looseObject({ error: z.string(), attemptsRemaining: z.number().optional().describe('Sign-ins left before the account locks for this address') });

export const authMethodsResponse = z.object({
  password: z.boolean().describe('false: the password form is turned off (single sign-on only)'),
  sso: z.object({ name: z.string(), startUrl: z.string() }).nullable().describe("Single sign-on through an OpenID provider: the button's name and where it goes"),
});

export const meResponse = z.object({ user });

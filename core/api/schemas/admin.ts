/** The admin calls (settings, account unlock) as Zod schemas; core/api/audit.ts infers AdminSettings from them. */
import { z } from 'zod';

export const adminSettings = z.object({
  secondPersonApproval: z.boolean().describe('An upload is approved only by someone other than its uploader'),
});

export const unlockParams = z.object({ username: z.string().min(1).max(200) });
export const unlockResponse = z.object({
  username: z.string(),
  unlockedAddresses: z.number().describe('Addresses the account was locked for, now lifted'),
});

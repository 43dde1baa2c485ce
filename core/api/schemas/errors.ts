/** Every error answer (docs/api.md#errors): what is wrong, in words; some carry more fields. */
import { z } from 'zod';

export const errorAnswer = z.looseObject({ error: z.string().describe('What is wrong, in words') });

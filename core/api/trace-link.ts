/** POST /api/evidence/:sha256/trace-link: opens one trace in the viewer flakeboard serves. */
import type { z } from 'zod';
import type * as s from './schemas/evidence.js';

/** The viewer's link to the trace, when it stops working, and whether the viewer is older than the trace. */
export type TraceLinkResponse = z.infer<typeof s.traceLinkResponse>;

import type { AiTraceMoment } from '../../../../core/api/ai.js';

const WHERE: Record<AiTraceMoment['shownIn'], string> = {
  actions: 'in the action list',
  network: 'in the Network tab',
  console: 'in the Console tab',
};

/**
 * Where to look once the trace is open. The viewer reads only the trace from its link and opens on
 * the failed action, so any other moment is named: "at 2.31 s: GET shop.test/api/stock, in the
 * Network tab".
 */
export function traceMomentText(moment: AiTraceMoment): string {
  const at = moment.atMs !== null ? `at ${(moment.atMs / 1000).toFixed(2)} s` : null;
  const what = [at, moment.action].filter((part): part is string => part !== null).join(': ');
  const where = moment.failedAction ? 'the viewer opens on it' : WHERE[moment.shownIn];
  return what ? `${what}, ${where}` : where.charAt(0).toUpperCase() + where.slice(1);
}

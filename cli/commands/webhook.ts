import type { Command } from 'commander';
import { WEBHOOK_DEFAULTS } from '../../core/api/webhooks.js';
import { WEBHOOK_EVENTS, WEBHOOK_KINDS, type WebhookKind } from '../../core/api/webhook-names.js';
import { terminalJson } from '../../core/terminal-text.js';
import { createWebhook, findWebhook, listWebhooks, removeWebhook } from '../../server/store/webhooks/hooks.js';
import { listDeliveries, recordDelivery } from '../../server/store/webhooks/outbox.js';
import { checkedWebhook, testEvent, webhookView } from '../../server/webhooks/config.js';
import { createDrain } from '../../server/webhooks/drain.js';
import { sendEvent } from '../../server/webhooks/send.js';
import { dbOption } from '../options.js';
import { auditCli, formatMinute, formatTable, printLine, withStore } from './admin-common.js';

interface DbOptions {
  db: string;
}

interface AddOptions extends DbOptions {
  kind: string;
  url: string;
  secret?: string;
  events?: string;
  base: string;
  passRate: string;
  expiryDays: string;
  by?: string;
}

/** `flakeboard webhook add|list|remove|test|drain`: where alerts go (docs/webhooks.md). */
export function registerWebhook(program: Command): void {
  const webhook = program.command('webhook').description('manage the webhooks alerts are sent to (Slack, Microsoft Teams, signed JSON)');

  webhook
    .command('add')
    .description('add a webhook; a generic one gets a signing secret, printed once')
    .argument('<name>', 'what the hook is called, e.g. #ci-alerts')
    .requiredOption('--kind <kind>', `${WEBHOOK_KINDS.join(', ')}`)
    .requiredOption('--url <url>', 'the incoming webhook URL (http or https)')
    .option('--secret <secret>', 'generic hooks: the signing secret (default: a new random one)')
    .option('--events <events>', `a comma list of ${WEBHOOK_EVENTS.join(', ')} (default: all)`)
    .option('--base <branch>', 'the base branch for broken-on-base and pass-rate', WEBHOOK_DEFAULTS.baseBranch)
    .option('--pass-rate <percent>', 'alert when a base-branch run passes less than this', String(WEBHOOK_DEFAULTS.passRateThreshold))
    .option('--expiry-days <days>', 'alert this many days before a quarantine entry expires', String(WEBHOOK_DEFAULTS.expiryDays))
    .option('--by <username>', 'who added it, for the record')
    .addOption(dbOption())
    .action(async (name: string, options: AddOptions) => {
      const { hook, secret } = checkedWebhook(
        {
          name,
          kind: options.kind.trim().toLowerCase() as WebhookKind,
          url: options.url,
          ...(options.secret !== undefined ? { secret: options.secret } : {}),
          ...(options.events !== undefined ? { events: options.events.split(',').filter((e) => e.trim() !== '') } : {}),
          baseBranch: options.base,
          passRateThreshold: numberOption(options.passRate, '--pass-rate'),
          expiryDays: numberOption(options.expiryDays, '--expiry-days'),
        },
        options.by ?? null,
      );
      await withStore(options.db, async (store) => {
        const stored = await createWebhook(store, hook);
        await auditCli(store, { action: 'webhook.create', target: { type: 'webhook', id: stored.id, label: stored.name }, detail: { kind: stored.kind, events: stored.events } });
        process.stderr.write(`added webhook ${stored.id} "${stored.name}" (${stored.kind}) for ${stored.events.join(', ')}\n`);
        if (secret) {
          process.stderr.write('Its signing secret follows, shown only this once: give it to the receiver to check X-Flakeboard-Signature.\n');
          // Alone on standard output, so SECRET=$(flakeboard webhook add ...) captures just it.
          printLine(secret);
        }
      });
    });

  webhook
    .command('list')
    .description('list the webhooks (never their secrets; Slack and Teams URLs masked), or their deliveries')
    .option('--deliveries', 'the latest deliveries instead: state, attempts, the receiver’s status')
    .option('--limit <n>', 'how many deliveries', '50')
    .option('--json', 'print JSON')
    .addOption(dbOption())
    .action(async (options: DbOptions & { deliveries?: boolean; limit: string; json?: boolean }) => {
      await withStore(options.db, async (store) => {
        if (options.deliveries) {
          const deliveries = await listDeliveries(store, { limit: Math.min(500, Math.max(1, numberOption(options.limit, '--limit'))) });
          if (options.json) return printLine(terminalJson(deliveries, 2));
          if (deliveries.length === 0) return printLine('no deliveries yet');
          const rows = deliveries.map((d) => [String(d.id), d.webhookName, d.event, d.state, String(d.attempts), d.lastStatus === null ? '-' : String(d.lastStatus), formatMinute(d.createdAt), d.state === 'pending' && d.nextAttemptAt ? `next ${formatMinute(d.nextAttemptAt)}` : (d.lastError ?? '')]);
          return printLine(formatTable([['ID', 'WEBHOOK', 'EVENT', 'STATE', 'ATTEMPTS', 'STATUS', 'CREATED', 'NOTE'], ...rows]));
        }
        const hooks = (await listWebhooks(store)).map(webhookView);
        if (options.json) return printLine(terminalJson(hooks, 2));
        if (hooks.length === 0) return printLine('no webhooks yet: add one with `flakeboard webhook add NAME --kind slack --url URL`');
        const rows = hooks.map((h) => [String(h.id), h.name, h.kind, h.url, h.events.join(','), h.baseBranch, `${h.passRateThreshold}%`, `${h.expiryDays}d`]);
        printLine(formatTable([['ID', 'NAME', 'KIND', 'URL', 'EVENTS', 'BASE', 'PASS RATE', 'EXPIRY'], ...rows]));
      });
    });

  webhook
    .command('remove')
    .description('remove a webhook and its queued deliveries')
    .argument('<id-or-name>', 'as `flakeboard webhook list` shows it')
    .addOption(dbOption())
    .action(async (idOrName: string, options: DbOptions) => {
      await withStore(options.db, async (store) => {
        const hook = await findWebhook(store, idOrName);
        if (!hook || !(await removeWebhook(store, hook.id))) throw new Error(`no webhook ${idOrName}`);
        await auditCli(store, { action: 'webhook.remove', target: { type: 'webhook', id: hook.id, label: hook.name } });
        printLine(`removed webhook ${hook.id} "${hook.name}"`);
      });
    });

  webhook
    .command('test')
    .description('send a test alert now and print what the receiver answered')
    .argument('<id-or-name>', 'as `flakeboard webhook list` shows it')
    .addOption(dbOption())
    .action(async (idOrName: string, options: DbOptions) => {
      await withStore(options.db, async (store) => {
        const hook = await findWebhook(store, idOrName);
        if (!hook) throw new Error(`no webhook ${idOrName}`);
        const event = testEvent();
        const result = await sendEvent(hook, event);
        await recordDelivery(store, hook.id, event, result);
        await auditCli(store, { action: 'webhook.test', target: { type: 'webhook', id: hook.id, label: hook.name }, detail: { ok: result.ok, status: result.status } });
        if (!result.ok) throw new Error(`webhook "${hook.name}": ${result.error}`);
        printLine(`✓ webhook "${hook.name}": the receiver answered ${result.status}`);
      });
    });

  webhook
    .command('drain')
    .description('send the alerts that are due now and exit (for a database no server runs on)')
    .addOption(dbOption())
    .action(async (options: DbOptions) => {
      await withStore(options.db, async (store) => {
        const drain = createDrain(store, { publicUrl: process.env.FLAKEBOARD_PUBLIC_URL?.trim() || null });
        let sent = 0;
        // Until nothing is due: failures wait for their backoff, to the next drain or server.
        for (let n = await drain.tick(); n > 0; n = await drain.tick()) sent += n;
        const waiting = (await listDeliveries(store, { limit: 500 })).filter((d) => d.state === 'pending').length;
        printLine(`${sent} ${sent === 1 ? 'delivery' : 'deliveries'} attempted; ${waiting} waiting to be retried`);
      });
    });
}

function numberOption(text: string, flag: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`${flag} must be a number, not "${text.slice(0, 50)}"`);
  return n;
}

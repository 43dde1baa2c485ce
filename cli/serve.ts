import { buildApp } from '../server/app.js';
import { hashPassword, scryptParamsFromEnv } from '../server/auth/passwords.js';
import { randomPassword } from '../server/auth/tokens.js';
import { seedDemo } from '../server/demo/seed.js';
import { readableLogStream } from '../server/logging.js';
import { isPostgresUrl } from '../server/store/engine/dialect.js';
import { openAnyStore } from '../server/store/engine/open-any.js';
import { exposedMode, SERVER_CACHE_MB } from '../server/store/engine/open.js';
import type { AnyStore } from '../server/store/engine/types.js';
import { countUsers, createUser, UserExistsError } from '../server/store/accounts/users.js';
import { recordAudit } from '../server/store/accounts/audit.js';
import { hostname } from 'node:os';
import { scheduleDailyPrune } from './prune-schedule.js';
import type { OidcClient } from '../server/auth/oidc-client.js';
import type { OidcSettings } from '../server/auth/oidc-settings.js';
import { OIDC_CALLBACK_PATH } from '../server/routes/oidc.js';
import type { EvidenceStore } from '../server/store/evidence/evidence-store.js';
import { FolderEvidenceStore } from '../server/store/evidence/folder-store.js';
import { openEvidenceStore, type EvidenceOptions } from '../server/store/evidence/open-evidence.js';

export interface ServeSettings {
  port: number;
  host: string;
  /** The SQLite file, or the PostgreSQL URL (never printed: store.target is). */
  dbPath: string;
  open: boolean;
  demo: boolean;
  bodyLimitBytes: number;
  /** Hops or addresses of the proxies to believe (cli/options.ts parseTrustProxy); null: none. */
  trustProxy: number | string | null;
  sessionMaxAgeMs: number;
  secureCookies: boolean;
  hsts: boolean;
  /** `--prune-older-than`: prune at start and daily (cli/prune-schedule.ts). */
  pruneOlderThan?: string | null;
  /** PostgreSQL's pool: connections and statement timeout (ignored on SQLite). */
  postgres?: { max: number; statementTimeoutMs: number };
  /** Single sign-on through an OpenID provider; null: none. */
  oidc?: OidcSettings | null;
  /** false: no password sign-in (single sign-on only). */
  localLogin?: boolean;
  /** `--public-url`: the origin browsers use, behind a proxy. */
  publicUrl?: URL | null;
  /** Where evidence is kept (--evidence, --evidence-dir, --evidence-endpoint). */
  evidence?: EvidenceOptions;
  /** Largest evidence blob an upload may send. */
  evidenceMaxBytes?: number;
}

const say = (line = ''): boolean => process.stdout.write(`${line}\n`);

/** Opens the store, prepares it, listens, and closes everything cleanly on SIGINT/SIGTERM. */
export async function serve(settings: ServeSettings): Promise<number> {
  // Only a file has a mode to check: PostgreSQL's access is its own users' and passwords'.
  if (!isPostgresUrl(settings.dbPath)) warnIfExposed(settings.dbPath);
  // busy_timeout 0: a write on this thread that meets another writer's lock (a CLI import) must
  // not sleep inside SQLite with every request waiting; it waits asynchronously (waiting-driver.ts).
  let store: AnyStore;
  try {
    store = await openAnyStore(settings.dbPath, { busyTimeoutMs: 0, cacheMb: SERVER_CACHE_MB, ...settings.postgres });
  } catch (error) {
    process.stderr.write(`flakeboard: ${(error as Error).message}\n`);
    return 1;
  }
  let evidence: EvidenceStore;
  try {
    evidence = await openEvidenceStore(settings.evidence ?? {}, store);
    if (evidence instanceof FolderEvidenceStore) await evidence.clearPartials();
  } catch (error) {
    await store.close();
    process.stderr.write(`flakeboard: the evidence store: ${(error as Error).message}\n`);
    return 1;
  }
  const scrypt = scryptParamsFromEnv();
  const localLogin = settings.localLogin ?? true;
  // Without password sign-in a generated admin password opens nothing: admins come from the provider.
  if (localLogin) await createFirstAdmin(store, scrypt);
  // openid-client and execa are loaded only by a server that uses them: every start pays for what it loads.
  const oidcClient = settings.oidc ? new (await import('../server/auth/oidc-client.js')).OidcClient(settings.oidc) : null;
  if (settings.demo) await seedDemoIfEmpty(store);

  const terminal = process.stdout.isTTY === true;
  const app = await buildApp({
    store,
    evidence,
    ...(settings.evidenceMaxBytes !== undefined ? { evidenceMaxBytes: settings.evidenceMaxBytes } : {}),
    host: settings.host,
    bodyLimit: settings.bodyLimitBytes,
    ...(settings.trustProxy !== null ? { trustProxy: settings.trustProxy } : {}),
    sessionMaxAgeMs: settings.sessionMaxAgeMs,
    secureCookies: settings.secureCookies,
    hsts: settings.hsts,
    scrypt,
    // The api benchmark compares against computing on the server's thread; nobody else needs this.
    analyticsWorker: process.env.FLAKEBOARD_ANALYTICS_WORKER !== '0',
    warmAnalytics: true,
    ...(settings.oidc && oidcClient ? { oidc: { client: oidcClient, settings: settings.oidc } } : {}),
    localLogin,
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
    // Alerts go out from every server; the outbox's claims keep several from sending one twice.
    webhookDrain: { publicUrl: process.env.FLAKEBOARD_PUBLIC_URL?.trim() || null },
    // JSON lines for log collectors; one readable line per event on a terminal.
    logger: { level: 'info', ...(terminal ? { stream: readableLogStream(process.stdout, !process.env.NO_COLOR) } : {}) },
  });
  try {
    await app.listen({ port: settings.port, host: settings.host });
  } catch (error) {
    await app.close();
    await evidence.close();
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') process.stderr.write(`flakeboard: port ${settings.port} on ${settings.host} is already in use: stop the other server or pass --port\n`);
    else if (code === 'EADDRNOTAVAIL') process.stderr.write(`flakeboard: ${settings.host} is not an address of this machine: pass --host\n`);
    else process.stderr.write(`flakeboard: cannot listen: ${(error as Error).message}\n`);
    return 1;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const shown = settings.host === '0.0.0.0' || settings.host === '::' ? 'localhost' : settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const url = `http://${shown}:${port}/`;

  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    // Stops accepting connections and waits for requests in flight, then closes the database.
    // An upload being stored is rolled back first (the writer's preClose hook) and answered 503.
    // A keep-alive connection whose request finishes after this point would otherwise stay
    // open until the browser's keep-alive runs out, holding the stop for a minute: close each
    // one as soon as it is idle, and every one after five seconds (an upload still arriving).
    // Whatever still holds the stop after nine seconds is cut short: a supervisor waits ten
    // before it kills, and SQLite loses nothing committed (a write in progress rolls back).
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => app.server.closeAllConnections(), 5_000);
    setTimeout(() => {
      process.stderr.write('flakeboard: could not close cleanly within 9 seconds; exiting\n');
      process.exit(1);
    }, 9_000).unref();
    let code = 0;
    try {
      await app.close();
    } catch (error) {
      code = 1;
      process.stderr.write(`flakeboard: closing the server failed: ${(error as Error).message}\n`);
    } finally {
      clearInterval(sweep);
      clearTimeout(deadline);
      await evidence.close();
      await store.close();
    }
    process.exit(code);
  };
  // `on`, not `once`: a second Ctrl-C while requests drain must not kill the process before the
  // database is closed.
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  if (settings.hsts && settings.trustProxy === null) {
    say('note: --hsts is sent only on requests that arrived over HTTPS; behind a TLS proxy, pass --trust-proxy so the server can tell.');
  }
  // Announced only once a stop signal closes cleanly: a supervisor (or a test) that stops the
  // server as soon as it reads this line must not kill it before the database is closed.
  if (settings.oidc && oidcClient) await announceSingleSignOn(settings.oidc, oidcClient, settings.publicUrl?.origin ?? url.replace(/\/$/, ''), localLogin);
  say(`flakeboard is serving ${store.target} at ${url}`);
  say(`evidence: ${evidence.location === 'none' ? 'not kept (give --evidence-dir or --evidence s3://bucket/prefix)' : evidence.location}`);
  if (settings.open) openBrowser(url);
  if (settings.pruneOlderThan) {
    const e = settings.evidence ?? {};
    const evidenceArgs = [
      ...(e.evidence !== undefined ? ['--evidence', e.evidence] : []),
      ...(e.evidenceDir !== undefined ? ['--evidence-dir', e.evidenceDir] : []),
      ...(e.evidenceEndpoint !== undefined ? ['--evidence-endpoint', e.evidenceEndpoint] : []),
    ];
    scheduleDailyPrune({ dbPath: settings.dbPath, olderThan: settings.pruneOlderThan, log: app.log, evidenceArgs });
  }
  return 0;
}

/**
 * Says how single sign-on is set up, and tries the provider once: one that cannot be reached now
 * is said, not fatal (the first sign-in tries again), so a provider's outage does not stop a restart.
 */
async function announceSingleSignOn(oidc: OidcSettings, client: OidcClient, origin: string, localLogin: boolean): Promise<void> {
  say(`Single sign-on with ${oidc.issuer.href} (client ${oidc.clientId}${oidc.clientSecret ? '' : ', public: PKCE only'}); callback ${origin}${OIDC_CALLBACK_PATH}${localLogin ? '' : '; password sign-in is off'}`);
  if (oidc.roles.allowedGroups.length === 0) say(`note: everyone ${oidc.issuer.host} signs in for this client gets a ${oidc.roles.defaultRole} account; limit it with --oidc-allowed-groups or the provider's assignments.`);
  if (!localLogin && !oidc.roles.adminGroup) say('note: with no --oidc-admin-group, make someone admin after their first sign-in: flakeboard user role NAME admin');
  try {
    await client.warm();
  } catch (error) {
    process.stderr.write(`flakeboard: warning: single sign-on is not usable yet: ${(error as Error).message}\n`);
  }
}

/**
 * The database holds password and token hashes and the XSRF secret: a file that group or others
 * may read (made by an older flakeboard, or copied) is said once at start, with the fix.
 */
function warnIfExposed(path: string): void {
  const mode = exposedMode(path);
  if (mode === null) return;
  const octal = mode.toString(8).padStart(4, '0');
  process.stderr.write(
    `flakeboard: warning: the database ${path} can be read or written by other users of this machine (mode ${octal}); it holds password and token hashes. Run: chmod 600 ${shellQuote(path)}\n`,
  );
}

const shellQuote = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** The first start of an empty database creates `admin` with a random password, shown once. */
async function createFirstAdmin(store: AnyStore, scrypt: ReturnType<typeof scryptParamsFromEnv>): Promise<void> {
  if ((await countUsers(store)) > 0) return;
  const password = randomPassword();
  try {
    const { id } = await createUser(store, { username: 'admin', passwordHash: await hashPassword(password, scrypt), role: 'admin' });
    // An admin account appearing is what an audit trail is read for, whoever made it.
    await recordAudit(store, { actor: { kind: 'system' }, source: `serve on ${hostname()}`, action: 'user.add', target: { type: 'user', id, label: 'admin' }, detail: { role: 'admin', firstAccount: true } });
  } catch (error) {
    // Another server starting on the same empty database made it first, and showed its password.
    if (error instanceof UserExistsError) return;
    throw error;
  }
  say('Created the first account. Sign in with:');
  say('  username: admin');
  say(`  password: ${password}`);
  say('This password is shown once. Change it with `flakeboard user passwd admin`; add people with `flakeboard user add NAME`.');
  say();
}

async function seedDemoIfEmpty(store: AnyStore): Promise<void> {
  const runs = Number(await store.sql.value<number>('SELECT count(*) AS n FROM runs'));
  if (runs > 0) {
    say(`--demo: the database already holds ${runs} runs; no demo history added.`);
    return;
  }
  const s = await seedDemo(store);
  say(`--demo: stored ${s.runs} generated runs (${s.results} test results; ${s.pending} pending review, ${s.duplicates} duplicate).`);
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  import('execa')
    .then(({ execa }) => execa(command, args, { detached: true, stdio: 'ignore', reject: false }))
    .catch(() => {
      say(`Could not open a browser: visit ${url}`);
    });
}

import { Option, type Command } from 'commander';
import { parseCutoff } from '../age.js';
import { addEvidenceStoreOptions, evidenceOptionsOf, parseSize } from '../evidence-options.js';
import { dbOption, parseDuration, parseTrustProxy, resolveDbTarget } from '../options.js';
import { oidcSettings, OidcSettingsError, parsePublicUrl, parseRole, type OidcSettings } from '../../server/auth/oidc-settings.js';

interface ServeOptions {
  port: string;
  host: string;
  db: string;
  open?: boolean;
  demo?: boolean;
  bodyLimit: string;
  trustProxy?: string;
  sessionMaxAge: string;
  secureCookies?: boolean;
  hsts?: boolean;
  pruneOlderThan?: string;
  pgPoolSize: string;
  pgStatementTimeout: string;
  publicUrl?: string;
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcName?: string;
  oidcScopes: string;
  oidcUsernameClaim: string;
  oidcRoleClaim: string;
  oidcAdminGroup?: string;
  oidcReviewerGroup?: string;
  oidcAllowedGroups?: string;
  oidcDefaultRole: string;
  localLogin: boolean;
  evidence?: string;
  evidenceDir?: string;
  evidenceEndpoint?: string;
  attachmentMaxSize?: string;
}

const HOUR = 3_600_000;

/**
 * A server's PostgreSQL pool: 10 connections (pg's default), and statements cut off after two
 * minutes, so a runaway query cannot hold a connection (and the answer) for ever; as long as
 * an upload waits for another writer's lock on SQLite (writer/runner.ts LOCK_WAIT_MS), since
 * the same waits for locks count as statements on PostgreSQL.
 */
const SERVE_POOL = { max: 10, statementTimeoutS: 120 };

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('start the dashboard: the JSON API and the UI on one port')
    .addOption(new Option('--port <number>', 'port to listen on (0 picks a free one)').env('FLAKEBOARD_PORT').default('4680'))
    .addOption(new Option('--host <address>', 'address to bind; 0.0.0.0 for a team server').env('FLAKEBOARD_HOST').default('127.0.0.1'))
    .addOption(dbOption())
    .option('--open', 'open the dashboard in a browser')
    .option('--demo', 'fill an empty database with a generated month of demo history first')
    .addOption(new Option('--body-limit <megabytes>', 'largest accepted upload').env('FLAKEBOARD_BODY_LIMIT_MB').default('100'))
    .addOption(
      new Option('--trust-proxy <hops|addresses>', 'behind a reverse proxy: how many proxies stand in front (e.g. 1), or their addresses (e.g. 127.0.0.1,10.0.0.0/8); client address and protocol then come from X-Forwarded-For and -Proto').env(
        'FLAKEBOARD_TRUST_PROXY',
      ),
    )
    .addOption(new Option('--session-max-age <duration>', 'a session ends this long after sign-in however active (e.g. 7d, 24h)').env('FLAKEBOARD_SESSION_MAX_AGE').default('7d'))
    .option('--secure-cookies', 'mark cookies Secure on every answer (they are whenever the request came over HTTPS)')
    .option('--hsts', 'send Strict-Transport-Security on answers over HTTPS')
    .addOption(new Option('--prune-older-than <age>', 'at start and every 24 h, remove runs older than this (90d, 12w, 6m): flakeboard prune').env('FLAKEBOARD_PRUNE_OLDER_THAN'))
    .addOption(new Option('--pg-pool-size <n>', 'PostgreSQL: connections in the pool of requests (and in the writer\'s)').env('FLAKEBOARD_PG_POOL_SIZE').default(String(SERVE_POOL.max)))
    .addOption(
      new Option('--pg-statement-timeout <seconds>', 'PostgreSQL: a statement running longer is cancelled (the request answers 503); 0 for none').env('FLAKEBOARD_PG_STATEMENT_TIMEOUT').default(String(SERVE_POOL.statementTimeoutS)),
    )
    .addOption(new Option('--public-url <url>', 'the address people open when a proxy stands in front (e.g. https://flakeboard.example.com): single sign-on\'s callback is made from it').env('FLAKEBOARD_PUBLIC_URL'))
    .addOption(new Option('--oidc-issuer <url>', 'single sign-on: the OpenID provider\'s issuer (https; http only on this machine); docs/single-sign-on.md').env('FLAKEBOARD_OIDC_ISSUER'))
    .addOption(new Option('--oidc-client-id <id>', 'single sign-on: flakeboard\'s client id at the provider (the secret, if any, from FLAKEBOARD_OIDC_CLIENT_SECRET)').env('FLAKEBOARD_OIDC_CLIENT_ID'))
    .addOption(new Option('--oidc-name <name>', 'single sign-on: the provider\'s name on the button, "Sign in with NAME"').env('FLAKEBOARD_OIDC_NAME'))
    .addOption(new Option('--oidc-scopes <scopes>', 'single sign-on: the scopes asked for, space-separated').env('FLAKEBOARD_OIDC_SCOPES').default('openid profile email'))
    .addOption(new Option('--oidc-username-claim <claims>', 'single sign-on: the claims a new account\'s name is taken from, first that is set').env('FLAKEBOARD_OIDC_USERNAME_CLAIM').default('preferred_username,email'))
    .addOption(new Option('--oidc-role-claim <claim>', 'single sign-on: the claim listing the groups (or roles) the options below name').env('FLAKEBOARD_OIDC_ROLE_CLAIM').default('groups'))
    .addOption(new Option('--oidc-admin-group <group>', 'single sign-on: members of this group are admins (the provider then sets roles at every sign-in)').env('FLAKEBOARD_OIDC_ADMIN_GROUP'))
    .addOption(new Option('--oidc-reviewer-group <group>', 'single sign-on: members of this group are reviewers').env('FLAKEBOARD_OIDC_REVIEWER_GROUP'))
    .addOption(new Option('--oidc-allowed-groups <groups>', 'single sign-on: only members of these groups (comma-separated) may sign in').env('FLAKEBOARD_OIDC_ALLOWED_GROUPS'))
    .addOption(new Option('--oidc-default-role <role>', 'single sign-on: the role of everyone else (member, reviewer or admin)').env('FLAKEBOARD_OIDC_DEFAULT_ROLE').default('member'))
    .option('--no-local-login', 'turn off sign-in with a password: single sign-on only');
  addEvidenceStoreOptions(command).option('--attachment-max-size <size>', 'largest evidence blob an upload may send (e.g. 100MB)', '100MB');
  command.action(async (options: ServeOptions) => {
    if (options.pruneOlderThan) parseCutoff(options.pruneOlderThan);
    const publicUrl = options.publicUrl ? parsePublicUrl(options.publicUrl) : null;
    const oidc = singleSignOn(options);
    if (!options.localLogin && !oidc) throw new OidcSettingsError('--no-local-login needs single sign-on (--oidc-issuer and --oidc-client-id): with neither, nobody could sign in');
    // Every option is read before the server is loaded: a mistyped one is said at once.
    const settings: Parameters<typeof import('../serve.js').serve>[0] = {
      port: parseNumber(options.port, '--port', 0, 65535),
      host: options.host,
      dbPath: resolveDbTarget(options.db),
      open: options.open ?? false,
      demo: options.demo ?? false,
      bodyLimitBytes: parseNumber(options.bodyLimit, '--body-limit', 1, 10_000) * 1024 * 1024,
      trustProxy: options.trustProxy === undefined ? null : parseTrustProxy(options.trustProxy, options.host),
      sessionMaxAgeMs: parseDuration(options.sessionMaxAge, '--session-max-age', HOUR, 365 * 24 * HOUR),
      secureCookies: options.secureCookies ?? false,
      hsts: options.hsts ?? false,
      pruneOlderThan: options.pruneOlderThan ?? null,
      evidence: evidenceOptionsOf(options),
      evidenceMaxBytes: parseSize(options.attachmentMaxSize ?? '100MB', '--attachment-max-size'),
      postgres: {
        max: parseNumber(options.pgPoolSize, '--pg-pool-size', 1, 1000),
        statementTimeoutMs: parseNumber(options.pgStatementTimeout, '--pg-statement-timeout', 0, 86_400) * 1000,
      },
      oidc,
      localLogin: options.localLogin,
      publicUrl,
    };
    // Loaded here, not at the top: `flakeboard import` never pays for Fastify.
    const { serve } = await import('../serve.js');
    process.exitCode = await serve(settings);
  });
}

/** The single sign-on settings, or null without --oidc-issuer; every problem is said before the server starts. */
function singleSignOn(options: ServeOptions): OidcSettings | null {
  const given = [options.oidcIssuer, options.oidcClientId, options.oidcAdminGroup, options.oidcReviewerGroup, options.oidcAllowedGroups, options.oidcName].some((v) => v !== undefined);
  if (!given) return null;
  if (!options.oidcIssuer || !options.oidcClientId) throw new OidcSettingsError('single sign-on needs both --oidc-issuer and --oidc-client-id');
  const list = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
  const group = (value: string | undefined) => (value?.trim() ? value.trim() : null);
  return oidcSettings({
    issuer: options.oidcIssuer,
    clientId: options.oidcClientId,
    clientSecret: process.env.FLAKEBOARD_OIDC_CLIENT_SECRET ?? null,
    ...(options.oidcName !== undefined ? { displayName: options.oidcName } : {}),
    scopes: options.oidcScopes.trim().includes('openid') ? options.oidcScopes.trim() : `openid ${options.oidcScopes.trim()}`,
    usernameClaims: list(options.oidcUsernameClaim),
    roles: {
      claim: options.oidcRoleClaim.trim() || 'groups',
      adminGroup: group(options.oidcAdminGroup),
      reviewerGroup: group(options.oidcReviewerGroup),
      allowedGroups: list(options.oidcAllowedGroups),
      defaultRole: parseRole(options.oidcDefaultRole, '--oidc-default-role'),
    },
  });
}

function parseNumber(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return n;
}

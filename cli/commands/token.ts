import type { Command } from 'commander';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken, DEFAULT_TOKEN_SCOPES, listApiTokens, revokeApiToken, TOKEN_SCOPES, type ApiTokenInfo, type TokenScope } from '../../server/store/accounts/api-tokens.js';
import { dbOption, parseDuration } from '../options.js';
import { auditCli, firstAdmin, formatDay, formatMinute, formatTable, printLine, requireUser, withStore } from './admin-common.js';
import { terminalJson } from '../../core/terminal-text.js';

interface DbOptions {
  db: string;
}

const NAME_MAX = 100;
const DAY = 86_400_000;

/** `flakeboard token create|list|revoke`: API tokens for CI uploads (docs/operations.md#users-roles-and-tokens). */
export function registerToken(program: Command): void {
  const token = program.command('token').description('manage the API tokens CI jobs upload with');

  token
    .command('create')
    .description('create an API token and print it once')
    .argument('<name>', 'what the token is for, e.g. the CI job')
    .option('--user <username>', 'the user the token acts as (default: the first admin)')
    .option('--expires <duration>', 'refuse the token after this long, e.g. 90d, 12w or 24h (default: never)')
    .option('--scope <scopes>', `what it may do, a comma list of ${TOKEN_SCOPES.join(', ')}: upload sends runs, read serves check --server and mcp, approve keeps its runs at once (its user must be a reviewer or admin)`, DEFAULT_TOKEN_SCOPES.join(','))
    .addOption(dbOption())
    .action(async (name: string, options: DbOptions & { user?: string; expires?: string; scope: string }) => {
      const scopes = parseScopes(options.scope);
      const label = name.trim();
      if (label.length === 0) throw new Error('the token name must not be empty');
      if (label.length > NAME_MAX) throw new Error(`the token name must be at most ${NAME_MAX} characters`);
      const expiresAt = options.expires === undefined ? null : Date.now() + parseDuration(options.expires, '--expires', 3_600_000, 3650 * DAY);
      await withStore(options.db, async (store) => {
        const owner = options.user !== undefined ? await requireUser(store, options.user) : await firstAdmin(store).then((admin) => admin && { ...admin, role: 'admin' as const });
        if (!owner) throw new Error('there is no admin to own the token: add one with `flakeboard user add NAME --role admin`, or pass --user');
        if (scopes.includes('approve') && owner.role === 'member') throw new Error(`--scope approve keeps runs without review: ${owner.username} is a member, who may not review`);
        const plain = newToken(API_TOKEN_PREFIX);
        // Only the SHA-256 is stored: a copy of the database grants no access.
        const id = await createApiToken(store, { name: label, tokenHash: hashToken(plain), userId: owner.id, expiresAt, scopes });
        await auditCli(store, { action: 'token.create', target: { type: 'token', id, label }, detail: { user: owner.username, scopes, expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() } });
        process.stderr.write(
          [
            `created API token ${id} "${label}" acting as ${owner.username} to ${scopes.join(' and ')}, ${expiresAt === null ? 'never expiring' : `expiring ${formatMinute(expiresAt)}`}.`,
            'It is shown only this once and cannot be recovered: store it now, e.g. as a CI secret.',
            'Use it as `flakeboard upload --token <token>` or in the FLAKEBOARD_TOKEN environment variable.',
            '',
          ].join('\n'),
        );
        // Alone on standard output, so `TOKEN=$(flakeboard token create ci)` captures just the token.
        printLine(plain);
      });
    });

  token
    .command('list')
    .description('list the API tokens (never the tokens themselves)')
    .option('--json', 'print a JSON array')
    .addOption(dbOption())
    .action(async (options: DbOptions & { json?: boolean }) => {
      const tokens = await withStore(options.db, listApiTokens);
      if (options.json) {
        printLine(terminalJson(tokens.map(toJson), 2));
      } else if (tokens.length === 0) {
        printLine('no API tokens yet: create one with `flakeboard token create NAME`');
      } else {
        const now = Date.now();
        const expiry = (t: ApiTokenInfo) => (t.expires_at === null ? 'never' : `${t.expires_at <= now ? 'expired ' : ''}${formatMinute(t.expires_at)}`);
        const rows = tokens.map((t) => [String(t.id), t.name, t.username, t.scopes.join(','), formatDay(t.created_at), t.last_used_at === null ? 'never' : formatMinute(t.last_used_at), expiry(t)]);
        printLine(formatTable([['ID', 'NAME', 'USER', 'SCOPES', 'CREATED', 'LAST USED', 'EXPIRES'], ...rows]));
      }
    });

  token
    .command('revoke')
    .description('revoke an API token by id, or by name when the name is unique')
    .argument('<id-or-name>', 'the id or the name shown by `flakeboard token list`')
    .addOption(dbOption())
    .action(async (idOrName: string, options: DbOptions) => {
      await withStore(options.db, async (store) => {
        const before = await listApiTokens(store);
        const n = await revokeApiToken(store, idOrName);
        if (n === 0) throw new Error(`no token ${idOrName}`);
        if (n < 0) throw new Error(`${-n} tokens are named ${idOrName}: revoke by id`);
        const left = new Set((await listApiTokens(store)).map((t) => t.id));
        const gone = before.find((t) => !left.has(t.id));
        await auditCli(store, { action: 'token.revoke', target: { type: 'token', id: gone?.id ?? idOrName, label: gone?.name ?? null }, detail: gone ? { user: gone.username, scopes: gone.scopes } : null });
        printLine(gone ? `revoked token ${gone.id} "${gone.name}" of ${gone.username}` : `revoked token ${idOrName}`);
      });
    });
}

function toJson(t: ApiTokenInfo): { id: number; name: string; user: string; scopes: string[]; createdAt: string; lastUsedAt: string | null; expiresAt: string | null } {
  return {
    id: t.id,
    name: t.name,
    user: t.username,
    scopes: t.scopes,
    createdAt: new Date(t.created_at).toISOString(),
    lastUsedAt: t.last_used_at === null ? null : new Date(t.last_used_at).toISOString(),
    expiresAt: t.expires_at === null ? null : new Date(t.expires_at).toISOString(),
  };
}

/** `upload,read`: known scope names, at least one, each once. */
export function parseScopes(text: string): TokenScope[] {
  const names = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`--scope: ${unknown.map((s) => JSON.stringify(s)).join(', ')} is not a scope; the scopes are ${TOKEN_SCOPES.join(', ')}`);
  if (names.length === 0) throw new Error(`--scope needs at least one of ${TOKEN_SCOPES.join(', ')}`);
  return TOKEN_SCOPES.filter((s) => names.includes(s));
}

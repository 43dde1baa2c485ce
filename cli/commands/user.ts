import type { Command } from 'commander';
import { ROLES, type Role } from '../../core/api/auth.js';
import { DEFAULT_SCRYPT, hashPassword, scryptParamsFromEnv } from '../../server/auth/passwords.js';
import type { AnyStore } from '../../server/store/engine/types.js';
import { DEFAULT_LOCKOUT } from '../../server/auth/lockout.js';
import { lockoutSummary, unlockAccount, type AccountLockout } from '../../server/store/accounts/login-failures.js';
import { createUser, findUser, listUsers, removeUser, setPassword, setRole, UserExistsError, type UserRecord } from '../../server/store/accounts/users.js';
import { dbOption } from '../options.js';
import { readPassword } from '../password-prompt.js';
import { auditCli, countAdmins, formatDay, formatMinute, formatTable, parseRole, printLine, requireUser, withStore } from './admin-common.js';
import { terminalJson } from '../../core/terminal-text.js';

interface DbOptions {
  db: string;
}

const USERNAME_MAX = 64;

/** `flakeboard user add|list|passwd|role|remove|unlock` (docs/operations.md#users-roles-and-tokens). */
export function registerUser(program: Command): void {
  const user = program.command('user').description('manage the accounts that sign in to the server');

  user
    .command('add')
    .description('add a user; asks for the password twice on the terminal')
    .argument('<name>', 'username')
    .option('--role <role>', `${ROLES.join(', ')}`, 'member')
    .option('--password-stdin', 'read the password from the first line of standard input')
    .addOption(dbOption())
    .action(async (name: string, options: DbOptions & { role: string; passwordStdin?: boolean }) => {
      const role = parseRole(options.role);
      const problem = usernameProblem(name);
      if (problem) throw new Error(problem);
      await withStore(options.db, async (store) => {
        const existing = await findUser(store, name);
        if (existing) throw new UserExistsError(existing.username);
        const passwordHash = await newPasswordHash({ passwordStdin: options.passwordStdin, confirm: true });
        const created = await createUser(store, { username: name, passwordHash, role });
        await auditCli(store, { action: 'user.add', target: { type: 'user', id: created.id, label: created.username }, detail: { role: created.role } });
        printLine(`added ${created.username} (${created.role})`);
      });
    });

  user
    .command('list')
    .description('list the users, their roles and whether failed sign-ins locked them out (from some addresses, for a while)')
    .option('--json', 'print a JSON array')
    .addOption(dbOption())
    .action(async (options: DbOptions & { json?: boolean }) => {
      const now = Date.now();
      const [users, lockouts] = await withStore(options.db, async (store) => [await listUsers(store), await lockoutSummary(store, now, DEFAULT_LOCKOUT)] as const);
      const lockoutOf = (u: UserRecord): AccountLockout => lockouts.get(u.id) ?? { lockedAddresses: 0, lockedUntil: null, failedAttempts: 0 };
      if (options.json) {
        printLine(terminalJson(users.map((u) => toJson(u, lockoutOf(u))), 2));
      } else if (users.length === 0) {
        printLine('no users yet: add one with `flakeboard user add NAME --role admin`');
      } else {
        const rows = users.map((u) => {
          const l = lockoutOf(u);
          const locked = l.lockedUntil === null ? 'no' : `until ${formatMinute(l.lockedUntil)} from ${l.lockedAddresses} ${l.lockedAddresses === 1 ? 'address' : 'addresses'}`;
          return [u.username, u.role, locked, String(l.failedAttempts), formatDay(u.created_at)];
        });
        printLine(formatTable([['USERNAME', 'ROLE', 'LOCKED', 'FAILED ATTEMPTS', 'CREATED'], ...rows]));
      }
    });

  user
    .command('passwd')
    .description("set a user's password; ends the user's sessions, revokes their API tokens and unlocks the account")
    .argument('<name>', 'username')
    .option('--password-stdin', 'read the password from the first line of standard input')
    .addOption(dbOption())
    .action(async (name: string, options: DbOptions & { passwordStdin?: boolean }) => {
      await withStore(options.db, async (store) => {
        const found = await requireUser(store, name);
        const passwordHash = await newPasswordHash({ passwordStdin: options.passwordStdin, confirm: true });
        const changed = await setPassword(store, found.username, passwordHash);
        if (!changed) throw new Error(`no user named ${name}`);
        const n = changed.tokensRevoked;
        await auditCli(store, { action: 'user.password', target: { type: 'user', id: found.id, label: found.username }, detail: { tokensRevoked: n } });
        printLine(`changed the password of ${found.username}; their sessions are ended and ${n} API ${n === 1 ? 'token is' : 'tokens are'} revoked`);
      });
    });

  user
    .command('role')
    .description("change a user's role; ends the user's sessions")
    .argument('<name>', 'username')
    .argument('<role>', ROLES.join(', '))
    .addOption(dbOption())
    .action(async (name: string, roleName: string, options: DbOptions) => {
      const role = parseRole(roleName);
      await withStore(options.db, async (store) => {
        const found = await requireUser(store, name);
        if (found.role === role) {
          printLine(`${found.username} is already ${article(role)} ${role}`);
          return;
        }
        if (found.role === 'admin') await refuseLastAdmin(store, found);
        if (!(await setRole(store, found.username, role))) throw new Error(`no user named ${name}`);
        await auditCli(store, { action: 'user.role', target: { type: 'user', id: found.id, label: found.username }, detail: { from: found.role, to: role } });
        printLine(`${found.username} is now ${article(role)} ${role}; their sessions are ended`);
      });
    });

  user
    .command('remove')
    .description('remove a user with their sessions and API tokens; their uploads stay')
    .argument('<name>', 'username')
    .addOption(dbOption())
    .action(async (name: string, options: DbOptions) => {
      await withStore(options.db, async (store) => {
        const found = await requireUser(store, name);
        if (found.role === 'admin') await refuseLastAdmin(store, found);
        const tokens = await store.db
          .selectFrom('api_tokens')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', found.id)
          .executeTakeFirstOrThrow();
        if (!(await removeUser(store, found.username))) throw new Error(`no user named ${name}`);
        const n = Number(tokens.n);
        await auditCli(store, { action: 'user.remove', target: { type: 'user', id: found.id, label: found.username }, detail: { role: found.role, tokensRevoked: n } });
        printLine(`removed ${found.username}; their sessions and ${n} API ${n === 1 ? 'token' : 'tokens'} went with them`);
      });
    });

  user
    .command('unlock')
    .description('lift the locks failed sign-ins put on an account (from every address) and reset its count')
    .argument('<name>', 'username')
    .addOption(dbOption())
    .action(async (name: string, options: DbOptions) => {
      await withStore(options.db, async (store) => {
        const found = await requireUser(store, name);
        const n = await unlockAccount(store, found.id, Date.now());
        await auditCli(store, { action: 'user.unlock', target: { type: 'user', id: found.id, label: found.username }, detail: { unlockedAddresses: n } });
        printLine(n > 0 ? `unlocked ${found.username} (locked from ${n} ${n === 1 ? 'address' : 'addresses'})` : `${found.username} was not locked; failed attempts reset to 0`);
      });
    });
}

function usernameProblem(name: string): string | null {
  if (name.length === 0) return 'the username must not be empty';
  if (name.length > USERNAME_MAX) return `the username must be at most ${USERNAME_MAX} characters`;
  if (/[\s\p{C}]/u.test(name)) return 'the username must not contain spaces or control characters';
  return null;
}

/** The last admin can be neither removed nor demoted: nobody could manage users any more. */
async function refuseLastAdmin(store: AnyStore, user: UserRecord): Promise<void> {
  if ((await countAdmins(store)) <= 1) throw new Error(`${user.username} is the last admin: add another admin first`);
}

async function newPasswordHash(options: { passwordStdin?: boolean; confirm: boolean }): Promise<string> {
  const password = await readPassword(options);
  const params = scryptParamsFromEnv();
  if (params.N < DEFAULT_SCRYPT.N) {
    process.stderr.write(`note: FLAKEBOARD_SCRYPT_N=${params.N} makes this password hash weaker than the default (N = ${DEFAULT_SCRYPT.N})\n`);
  }
  return hashPassword(password, params);
}

function toJson(u: UserRecord, l: AccountLockout) {
  return {
    id: u.id,
    username: u.username,
    role: u.role as Role,
    locked: l.lockedUntil !== null,
    lockedAddresses: l.lockedAddresses,
    lockedUntil: l.lockedUntil === null ? null : new Date(l.lockedUntil).toISOString(),
    failedAttempts: l.failedAttempts,
    createdAt: new Date(u.created_at).toISOString(),
  };
}

function article(role: Role): string {
  return role === 'admin' ? 'an' : 'a';
}

/** `flakeboard doctor --db postgres://…`: the server, the schema version and the rows per table. */
import { redactUrl } from '../../server/store/engine/dialect.js';
import { LATEST_SCHEMA } from '../../server/store/engine/maintenance.js';
import { inspectPostgres } from '../../server/store/engine/open-postgres.js';
import type { Check } from './doctor-checks.js';

export async function postgresChecks(url: string): Promise<Check[]> {
  const shown = redactUrl(url);
  let found;
  try {
    found = await inspectPostgres(url);
  } catch (error) {
    return [{ check: 'database', status: 'fail', message: (error as Error).message, fix: 'check that PostgreSQL runs and accepts this URL (host, port, user, password, database)' }];
  }
  const checks: Check[] = [{ check: 'database', status: 'ok', message: `PostgreSQL ${found.serverVersion} at ${shown}` }];
  const { schemaVersion } = found;
  if (schemaVersion === LATEST_SCHEMA) checks.push({ check: 'schema', status: 'ok', message: `version ${schemaVersion}, as this flakeboard writes` });
  else if (schemaVersion === 0) checks.push({ check: 'schema', status: 'warn', message: 'no flakeboard schema yet (an empty database)', fix: 'copy a SQLite database into it: `flakeboard migrate-db --from FILE.db --to URL`' });
  else if (schemaVersion < LATEST_SCHEMA) checks.push({ check: 'schema', status: 'warn', message: `version ${schemaVersion}; this flakeboard writes ${LATEST_SCHEMA}`, fix: 'the next `migrate-db` into it upgrades it' });
  else checks.push({ check: 'schema', status: 'fail', message: `version ${schemaVersion}, written by a newer flakeboard (this one knows ${LATEST_SCHEMA})`, fix: 'upgrade flakeboard: `npm install flakeboard@latest`' });
  const tables = Object.entries(found.counts);
  if (tables.length > 0) checks.push({ check: 'contents', status: 'ok', message: tables.map(([name, rows]) => `${name} ${rows.toLocaleString('en-US')}`).join(', ') });
  return checks;
}

import { postgresText } from './dialect.js';
import type { Sql } from './sql.js';

/** Rows per statement: one array parameter per column, a few thousand values each. */
export const UNNEST_BATCH = 2000;

/**
 * PostgreSQL's bulk write (the one engine-specific part of storing a report; SQLite's is
 * run-figures.ts ValuesWriter, prepared multi-row VALUES): `INSERT INTO t (cols) SELECT * FROM
 * unnest(@c0::type[], …) tail`, a column per array, so a statement's text is the same for any
 * number of rows and never nears the 65,535-parameter limit. Text loses U+0000 (dialect.ts postgresText).
 */
export class UnnestWriter {
  private readonly text: string;

  constructor(
    private readonly sql: Sql,
    table: string,
    columns: string,
    private readonly types: readonly string[],
    tail = '',
  ) {
    const arrays = types.map((type, i) => `CAST(@c${i} AS ${type}[])`).join(', ');
    this.text = `INSERT INTO ${table} (${columns}) SELECT * FROM unnest(${arrays}) ${tail}`;
  }

  /** Writes the rows (each in the column order), UNNEST_BATCH per statement. */
  async writeAll(rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
    for (let start = 0; start < rows.length; start += UNNEST_BATCH) await this.write(rows.slice(start, start + UNNEST_BATCH));
  }

  private async write(rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
    if (rows.length === 0) return;
    const params: Record<string, unknown[]> = {};
    this.types.forEach((type, i) => {
      const column = rows.map((row) => row[i] ?? null);
      params[`c${i}`] = type === 'text' ? column.map((v) => (typeof v === 'string' ? postgresText(v) : v)) : column;
    });
    await this.sql.run(this.text, params);
  }
}

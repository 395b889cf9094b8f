// A table whose writes wait, as behind a stalled disk: another connection holds it in EXCLUSIVE mode,
// which lets reads through and holds every INSERT, UPDATE and DELETE until released.
import pg from 'pg';

/** Locks `table` of the database at `url` against writes; the returned function lets them through. */
export async function lockWrites(url: string, table: string): Promise<() => Promise<void>> {
  const admin = new pg.Client({ connectionString: url });
  admin.on('error', () => {});
  await admin.connect();
  await admin.query('BEGIN');
  await admin.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  return async () => {
    await admin.query('ROLLBACK');
    await admin.end();
  };
}

// How many times `oidc_models` was vacuumed, from Postgres's own statistics (PGlite keeps them too).
import type { Queryable } from '../../../adapters/sql/database.ts';

export async function vacuumsOfModels(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'oidc_models'`);
  return Number(rows[0].n);
}

import { sqlAdapter } from '../../adapters/sql/adapter.ts';
import { freshPglite } from '../support/databases.ts';
import { describeAdapterContract } from './contract.ts';

describeAdapterContract(
  'PGlite',
  async () => {
    const db = await freshPglite();
    return {
      adapter: (model, options) => sqlAdapter(db, model, options ?? { refreshTokenReuseGrace: 0 }),
      // Every column of every row, as Postgres itself prints it.
      dump: async () => (await db.query<{ row: string }>('SELECT m::text AS row FROM oidc_models m')).rows.map((r) => r.row).join('\n'),
      close: () => db.close(),
    };
  },
  { refreshTokens: true },
);

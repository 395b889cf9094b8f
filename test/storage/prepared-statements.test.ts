// Statements with parameters run as named prepared statements on Postgres (adapters/sql/postgres.ts):
// parsed once per connection. A migration applied while an instance runs (a rolling upgrade) may
// change what such a statement returns; the instance must go on answering, not fail on its old plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, type FreshPostgres } from '../support/databases.ts';

let pg: FreshPostgres;
beforeAll(async () => {
  pg = await freshPostgres({ migrated: false });
});
afterAll(() => pg?.drop());

describe('named statements on Postgres', () => {
  it('keep answering after the schema under them changed', async () => {
    await pg.db.exec(`CREATE TABLE notes (id int PRIMARY KEY, body text); INSERT INTO notes VALUES (1, 'a'), (2, 'b')`);
    const read = () => pg.db.query<Record<string, unknown>>('SELECT * FROM notes WHERE id = $1', [1]);
    // Several times, so that every connection of the pool may hold the prepared statement.
    for (let i = 0; i < 12; i += 1) expect((await Promise.all([read(), read(), read()]))[0].rows).toEqual([{ id: 1, body: 'a' }]);

    await pg.db.exec(`ALTER TABLE notes ADD COLUMN author text DEFAULT 'awa'`);
    for (let i = 0; i < 12; i += 1) {
      const [res] = await Promise.all([read(), read(), read()]);
      expect(res.rows).toEqual([{ id: 1, body: 'a', author: 'awa' }]);
    }
  });
});

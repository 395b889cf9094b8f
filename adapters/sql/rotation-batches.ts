// Rotations committed in the same turn of the event loop go to the database as one statement. Under load
// several refreshes finish in one turn, and each would otherwise be a statement, a transaction and a wait
// for the disk of its own: the commit is the dearest part of a refresh (docs/architecture/decisions.md prices it). One
// statement is one transaction: durable as a whole once it returns, failed as a whole when it fails (an
// outage answers each refresh in it with a 503, and consumes none of their tokens).
//
// Each rotation keeps its own outcome: the statement answers, rotation by rotation, which moved their
// family's head. A family appears at most once in a statement, and never in two statements of this
// instance at once: a use of a family whose rotation is still on its way (a parallel refresh) waits for
// it, and is then judged on the family it left, as if the two had come one after the other. So this
// instance's statements never wait on each other's row locks; another instance's may, as before. Every
// statement lists its families in the order of their keys, so that two of them take their rows in one order
// and do not deadlock (were Postgres to find one, it would cancel a statement: a 503, nothing consumed).
import type { Database } from './database.ts';
import { rotationRule } from './rotation-rule.ts';

/** One rotation's parameters, in the order of the single statement's `$1..$7` (refresh-tokens.ts). */
export type RotationParams = [
  family: string,
  presented: string,
  now: number,
  grace: number,
  expiresAt: number,
  successorKey: string | null,
  successor: string | null,
];

/** What the single statement answers: `won` 1 when the head moved (or the grace let the use in). */
export interface RotationOutcome {
  won: number;
}

/** Rotations in one statement, at most; more in the same turn go in the next one. */
const MAX_PER_STATEMENT = 50;

// The rule of rotation-rule.ts on every row of `r`, one per rotation (`i` its place in the batch); with
// distinct families, each row updates a row of its own. The families are also given as a list ($2): the
// planner cannot count the rows of `r`, and would otherwise scan the whole table for them; by the list, it
// reads them on the primary key.
const RULE = rotationRule({
  presented: 'r.presented',
  now: 'r.now',
  grace: 'r.grace',
  expiresAt: 'r.exp',
  successorKey: 'r.skey',
  successor: 'r.successor',
});
const BATCH = `WITH r AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
      AS r(i int, family text, presented text, now bigint, grace int, exp bigint, skey text, successor jsonb)
  ), moved AS (
    UPDATE refresh_families f
       SET ${RULE.set}
      FROM r
     WHERE f.id_hash = ANY($2::text[]) AND f.id_hash = r.family AND (${RULE.moves})
    RETURNING r.i
  )
  SELECT r.i, (m.i IS NOT NULL)::int AS won FROM r LEFT JOIN moved m ON m.i = r.i`;

interface Pending {
  params: RotationParams;
  resolve(outcome: RotationOutcome | undefined): void;
  reject(error: unknown): void;
}

const familyKey = (pending: Pending): string => pending.params[0];
// The families of a batch are distinct: no two compare equal.
const byFamily = (a: Pending, b: Pending): number => (familyKey(a) < familyKey(b) ? -1 : 1);

/** One rotation as a row of the batch; its successor is JSON already (storedPayload), and goes in as such. */
function batchRow([family, presented, now, grace, exp, skey, successor]: RotationParams, i: number): string {
  return `{"i":${i},"family":${JSON.stringify(family)},"presented":${JSON.stringify(presented)},"now":${now},"grace":${grace},"exp":${exp},"skey":${JSON.stringify(skey)},"successor":${successor ?? 'null'}}`;
}

/**
 * Commits rotations: `single` (the one-rotation statement, same parameters) for a rotation alone in its
 * turn, one batch statement for several.
 */
export function rotationBatches(db: Database, single: string): (params: RotationParams) => Promise<RotationOutcome | undefined> {
  let queued: Pending[] = [];
  let scheduled = false;
  // Families in a statement on its way, each with the rotations of it that wait for that statement.
  const inFlight = new Map<string, Pending[]>();

  const run = async (batch: Pending[]): Promise<Array<RotationOutcome | undefined>> => {
    if (batch.length === 1) return (await db.query<RotationOutcome>(single, batch[0].params)).rows;
    const rows = `[${batch.map((pending, i) => batchRow(pending.params, i)).join(',')}]`;
    const res = await db.query<RotationOutcome & { i: number }>(BATCH, [rows, batch.map(familyKey)]);
    const outcomes: Array<RotationOutcome | undefined> = new Array(batch.length);
    for (const row of res.rows) outcomes[row.i] = row;
    return outcomes;
  };

  const send = (batch: Pending[]) => {
    for (const pending of batch) inFlight.set(familyKey(pending), []);
    const landed = () => {
      for (const pending of batch) {
        const waiting = inFlight.get(familyKey(pending)) ?? [];
        inFlight.delete(familyKey(pending));
        for (const next of waiting) enqueue(next);
      }
    };
    run(batch).then(
      (outcomes) => {
        landed();
        batch.forEach((pending, i) => pending.resolve(outcomes[i]));
      },
      (error: unknown) => {
        landed();
        for (const pending of batch) pending.reject(error);
      },
    );
  };

  const flush = () => {
    scheduled = false;
    const turn = queued;
    queued = [];
    const batch: Pending[] = [];
    const families = new Set<string>();
    for (const pending of turn) {
      const family = familyKey(pending);
      const waiting = inFlight.get(family);
      if (waiting) waiting.push(pending);
      else if (families.has(family) || batch.length === MAX_PER_STATEMENT) queued.push(pending);
      else {
        families.add(family);
        batch.push(pending);
      }
    }
    if (batch.length > 0) send(batch.sort(byFamily));
    if (queued.length > 0) schedule();
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  const enqueue = (pending: Pending) => {
    queued.push(pending);
    schedule();
  };

  return (params) => new Promise((resolve, reject) => enqueue({ params, resolve, reject }));
}

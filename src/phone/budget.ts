// The daily message budget (phone.dailyBudget): every message a gateway is asked to send is counted, all
// instances together, by one atomic statement on the day's row (UTC). Past the budget nothing is sent
// until the next day: SMS pumping then costs at most one day's budget.
import type { Queryable } from '../../adapters/sql/database.ts';

export class MessageBudget {
  constructor(
    private readonly db: Queryable,
    private readonly perDay: number,
  ) {}

  /** Counts one message if the day's budget allows it; false (and nothing counted) once it is spent. */
  async take(): Promise<boolean> {
    const res = await this.db.query(
      `INSERT INTO phone_message_budget (day, sent) VALUES ((now() AT TIME ZONE 'UTC')::date, 1)
       ON CONFLICT (day) DO UPDATE SET sent = phone_message_budget.sent + 1 WHERE phone_message_budget.sent < $1
       RETURNING sent`,
      [this.perDay],
    );
    return res.rowCount > 0;
  }

  /** Whether today's budget is spent: read, nothing counted. */
  async spent(): Promise<boolean> {
    const res = await this.db.query<{ sent: number }>(`SELECT sent FROM phone_message_budget WHERE day = (now() AT TIME ZONE 'UTC')::date`);
    return (res.rows[0]?.sent ?? 0) >= this.perDay;
  }
}

import type { OpenUnmaskedWindowRequest, UnmaskedWindow } from '@artemis-studio/contracts';
import { firstChanged, firstRow, isoOrNull, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';

interface WindowRow {
  id: string;
  queue: string;
  user_name: string;
  reason: string;
  ticket: string | null;
  starts_at: Date;
  ends_at: Date;
  ended_early_at: Date | null;
}

const windowOf = (r: WindowRow): UnmaskedWindow => ({
  id: r.id,
  queue: r.queue,
  user: r.user_name,
  reason: r.reason,
  ticket: r.ticket,
  startsAt: r.starts_at.toISOString(),
  endsAt: r.ends_at.toISOString(),
  endedEarlyAt: isoOrNull(r.ended_early_at),
});

const COLUMNS = 'id, queue, user_name, reason, ticket, starts_at, ends_at, ended_early_at';
const IN_FORCE = 'ended_early_at IS NULL AND ends_at > now()';

/** Break-glass windows on masked bodies (`unmasked_window`); opening and ending commit with their audit row. */
@Injectable()
export class UnmaskedWindowsRepository {
  constructor(private readonly database: DatabaseService) {}

  async inForce(clusterId: string): Promise<UnmaskedWindow[]> {
    const rows = await rowsOf<WindowRow>(
      await this.database.forRequest(),
      `SELECT ${COLUMNS} FROM unmasked_window WHERE cluster_id = $1 AND ${IN_FORCE} ORDER BY ends_at`,
      [clusterId],
    );
    return rows.map(windowOf);
  }

  /** The window in force of this person on this queue, if any: read at each page they browse. */
  async mine(clusterId: string, queue: string, userId: string): Promise<UnmaskedWindow | null> {
    const row = await firstRow<WindowRow>(
      await this.database.forRequest(),
      `SELECT ${COLUMNS} FROM unmasked_window
        WHERE cluster_id = $1 AND queue = $2 AND user_id = $3 AND ${IN_FORCE} ORDER BY ends_at DESC LIMIT 1`,
      [clusterId, queue, userId],
    );
    return row && windowOf(row);
  }

  async open(
    clusterId: string,
    queue: string,
    user: { id: string; name: string },
    request: OpenUnmaskedWindowRequest,
    note: AuditNote,
  ): Promise<UnmaskedWindow> {
    return (await this.database.forRequest()).transaction(async (tx) => {
      const row = await firstRow<WindowRow>(
        tx,
        `INSERT INTO unmasked_window (cluster_id, queue, user_id, user_name, reason, ticket, ends_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(mins => $7)) RETURNING ${COLUMNS}`,
        [clusterId, queue, user.id, user.name, request.reason, request.ticket ?? null, request.minutes],
      );
      const window = windowOf(row!);
      await note.within(tx, {
        detail: {
          windowId: window.id,
          minutes: request.minutes,
          endsAt: window.endsAt,
          reason: request.reason,
          ...(request.ticket ? { ticket: request.ticket } : {}),
        },
      });
      return window;
    });
  }

  /** Ends a window before its time; one that has ended already is a conflict, saying so. */
  async end(clusterId: string, id: string, note: AuditNote): Promise<UnmaskedWindow> {
    return (await this.database.forRequest()).transaction(async (tx) => {
      const row = await firstChanged<WindowRow>(
        tx,
        `UPDATE unmasked_window SET ended_early_at = now()
          WHERE cluster_id = $1 AND id = $2 AND ${IN_FORCE} RETURNING ${COLUMNS}`,
        [clusterId, id],
      );
      if (!row) {
        const exists = await firstRow(tx, `SELECT 1 FROM unmasked_window WHERE cluster_id = $1 AND id = $2`, [
          clusterId,
          id,
        ]);
        if (!exists)
          throw new DomainError('not-found', 'WINDOW_NOT_FOUND', `no unmasked window ${id} on this cluster`);
        throw new DomainError('conflict', 'WINDOW_ENDED', 'the window has ended already');
      }
      await note.within(tx, { target: row.queue, detail: { windowId: id } });
      return windowOf(row);
    });
  }
}

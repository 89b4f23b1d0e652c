/**
 * What pg_cron does on Supabase and PGlite cannot: the open questions' retention sweep
 * (`private.sweep_open_questions()`, migration …_open_questions.sql), run as the database owner
 * once when the stack starts and then every hour while it runs. A failed sweep is reported and
 * tried again at the next hour.
 */
import type { PGlite } from '@electric-sql/pglite';

export const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface RetentionSweeps {
  /** Settles when the sweep at start has run. */
  readonly started: Promise<void>;
  close(): Promise<void>;
}

export function startRetentionSweeps(db: PGlite, report: (error: unknown) => void): RetentionSweeps {
  let running: Promise<void> | null = null;
  let closed = false;
  const sweep = (): Promise<void> => {
    if (closed) return Promise.resolve();
    running ??= db
      .query('select private.sweep_open_questions()')
      .then(() => undefined, report)
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  // The stack stops with Ctrl-C or its close(), not because a timer is left.
  timer.unref();
  return {
    started: sweep(),
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}

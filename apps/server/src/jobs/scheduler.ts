import type { FastifyInstance } from 'fastify';
import { rollAllSlots } from '../modules/appointments/providers.service';
import { cleanupExpired } from '../modules/maintenance/cleanup';
import { onceAcrossProcesses } from '../db/advisory-lock';
import { removeExpiredExports } from '../modules/export/export.service';
import { extendRecurringReminders, sendDueReminders } from './reminders';
import { systemContext } from '../context';

export interface SchedulerOptions {
  /** How often due reminders are looked for. */
  reminderEveryMs?: number;
  /** How often slots are rolled on to the horizon and recurring reminders extended. */
  rollEveryMs?: number;
}

/**
 * The scheduled work of a server process: reminders every 30 seconds (each sent once across
 * processes: SKIP LOCKED), slots and recurring reminders kept rolling, and the hourly cleanup
 * (expired export PDFs too, each removed by one process: SKIP LOCKED).
 * Every run is caught and logged; a run still going is not started twice. Stopped on close.
 */
export function startScheduler(app: FastifyInstance, opts: SchedulerOptions = {}): void {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<string>();
  let closed = false;
  const every = (name: string, ms: number, work: () => Promise<unknown>, atStart = false) => {
    const tick = () => {
      if (closed || running.has(name)) return;
      running.add(name);
      work()
        .then((result) => app.log.debug({ job: name, result }, 'scheduled work done'))
        .catch((err: unknown) => app.log.error({ err, job: name }, 'scheduled work failed'))
        .finally(() => running.delete(name));
    };
    const timer = setInterval(tick, ms);
    timer.unref();
    timers.push(timer);
    if (atStart) setImmediate(tick);
  };

  every('reminders', opts.reminderEveryMs ?? 30_000, () => sendDueReminders(app.db, app.mailer), true);
  every(
    'calendar-roll',
    opts.rollEveryMs ?? 6 * 60 * 60_000,
    () =>
      onceAcrossProcesses(app.db, 'healthbook-calendar-roll', async (db) => ({
        providers: await rollAllSlots(db),
        reminders: await extendRecurringReminders(db),
      })),
    true,
  );
  every('cleanup', 60 * 60_000, () => cleanupExpired(app.db));
  // Chats whose patient is gone (their socket's process died, their browser went away) end.
  every('chat-sweep', 30_000, () => app.chat.sweep());
  // The sockets' tickets, an hour after they expired.
  every('socket-tickets', 30_000, () => app.socketTickets.sweep());
  // Bulk patient invitations being sent (each row once across processes: SKIP LOCKED); a send also starts at once.
  every('patient-imports', 10_000, () => app.patientImports.kick(), true);
  // Connected sources due a sync (each connection claimed by one process: SKIP LOCKED); "Sync now" kicks it at once too.
  every('source-syncs', 60_000, () => app.sources.kick(), true);
  every('export-cleanup', 60 * 60_000, () => removeExpiredExports(app.db, app.storage, app.log));
  // Closed accounts whose grace period is over are erased, each by one process (SKIP LOCKED).
  every('account-erasure', 10 * 60_000, async () => {
    const done = await app.accountClosing.eraseDue(systemContext(app.log));
    return done.map((d) => ({ closing: d.closingId, ms: d.ms, files: d.files, filesFailed: d.filesFailed }));
  });
  app.addHook('onClose', async () => {
    closed = true;
    for (const t of timers) clearInterval(t);
  });
}

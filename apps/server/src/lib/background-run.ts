/**
 * Work a process does in the background until none is left (bulk invitations, source syncs): one
 * run at a time, started by a request or the scheduler (`kick`; a kick while it runs is the same
 * run), told to stop between items on shutdown (`stopped`), awaited then (`stop`). A failed run is
 * reported, never thrown at whoever kicked it.
 */
export class BackgroundRun {
  private running: Promise<void> | null = null;
  private halted = false;

  constructor(
    private readonly work: (stopped: () => boolean) => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts the work unless it runs already (or the process is stopping); resolves when that run ends. */
  kick(): Promise<void> {
    if (this.halted) return Promise.resolve();
    this.running ??= this.work(() => this.halted)
      .then(() => undefined)
      .catch(this.onError)
      .finally(() => {
        this.running = null;
      });
    return this.running ?? Promise.resolve();
  }

  /** No new run; the one under way is told to stop between items, and awaited. */
  async stop(): Promise<void> {
    this.halted = true;
    await this.running;
  }

  /** Waits until no run is under way (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

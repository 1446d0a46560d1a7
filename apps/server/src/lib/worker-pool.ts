import { availableParallelism } from 'node:os';
import { Worker, type Transferable } from 'node:worker_threads';

/**
 * A small bounded pool of worker threads for work that grows with a patient's data (a PDF, a
 * big import): at most `size` tasks run at once, each in its own thread, at most `maxQueue`
 * wait; beyond that `run` refuses at once (PoolFullError) rather than pile up. Workers start
 * on demand, stay warm for `idleMs`, and never keep the process alive while idle. A worker
 * that dies or overruns `timeoutMs` fails its task and is replaced.
 *
 * A worker module calls `serveTasks` (worker-task.ts). From the TypeScript sources (tsx,
 * vitest) the module runs through tsx's loader; in the built server it is its own bundle
 * beside server.js (apps/server/build.mjs lists the entries).
 */

export class PoolFullError extends Error {
  constructor(readonly pool: string) {
    super(`the ${pool} pool is full`);
    this.name = 'PoolFullError';
  }
}

export interface WorkerPoolOptions {
  /** The pool's name (in errors and the threads' names). */
  name: string;
  /** The worker module: its source (…/x.worker.ts, as `new URL('./x.worker.ts', import.meta.url)`) and its bundle's name (x.worker). */
  source: URL;
  bundle: string;
  /** Tasks running at once (default: one less than the CPUs, at least 1, at most 2). */
  size?: number;
  /** Tasks waiting at most (default 8). */
  maxQueue?: number;
  /** An idle worker ends after this long (default 30 s). */
  idleMs?: number;
  /** A task running longer fails, and its worker is ended (default 5 minutes). */
  timeoutMs?: number;
}

interface Task {
  input: unknown;
  parts: unknown[];
  transfer: Transferable[];
  onProgress: ((fraction: number) => void) | undefined;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  idleTimer: NodeJS.Timeout | null;
  taskTimer: NodeJS.Timeout | null;
}

type Reply = { ok: true; result: unknown } | { ok: false; error: { name: string; message: string; code?: string } } | { progress: number };

/** Running from the TypeScript sources (tsx, vitest), not from the bundle. */
const fromSources = import.meta.url.endsWith('.ts');

export const defaultPoolSize = () => Math.max(1, Math.min(2, availableParallelism() - 1));

export class WorkerPool<In, Out> {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private readonly size: number;
  private readonly maxQueue: number;
  private readonly idleMs: number;
  private readonly timeoutMs: number;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.size = options.size ?? defaultPoolSize();
    this.maxQueue = options.maxQueue ?? 8;
    this.idleMs = options.idleMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 300_000;
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    let running = 0;
    for (const slot of this.slots) if (slot.task) running++;
    return { running, waiting: this.queue.length };
  }

  /**
   * Runs one task in a worker; `transfer` lists buffers of `input` handed over rather than
   * copied. Big data goes as `parts` (e.g. pages of records): each is copied to the worker in
   * its own message, the event loop free between them, and the handler gets them in order.
   * `onProgress` hears how far the task is (a fraction from 0 to 1), as the worker reports it.
   */
  run(input: In, options: { parts?: unknown[]; transfer?: Transferable[]; onProgress?: (fraction: number) => void } = {}): Promise<Out> {
    if (this.closed) return Promise.reject(new Error(`the ${this.options.name} pool is closed`));
    const idle = [...this.slots].find((s) => !s.task);
    if (!idle && this.slots.size >= this.size && this.queue.length >= this.maxQueue) return Promise.reject(new PoolFullError(this.options.name));
    return new Promise<Out>((resolve, reject) => {
      const task: Task = { input, parts: options.parts ?? [], transfer: options.transfer ?? [], onProgress: options.onProgress, resolve: resolve as (value: unknown) => void, reject };
      if (idle) this.start(idle, task);
      else if (this.slots.size < this.size) this.start(this.spawn(), task);
      else this.queue.push(task);
    });
  }

  /** Ends every worker; waiting tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error(`the ${this.options.name} pool is closed`));
    await Promise.all([...this.slots].map((slot) => this.end(slot, new Error(`the ${this.options.name} pool is closed`))));
  }

  private spawn(): Slot {
    const name = `${this.options.name}-worker`;
    // The sources are TypeScript: the worker registers tsx's loader, then imports them (the bundle needs nothing).
    const worker = fromSources
      ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(this.options.source.href)}); });`, { name, eval: true })
      : new Worker(new URL(`./${this.options.bundle}.js`, import.meta.url), { name });
    const slot: Slot = { worker, task: null, idleTimer: null, taskTimer: null };
    this.slots.add(slot);
    worker.on('message', (reply: Reply) => {
      const task = slot.task;
      if (!task) return;
      if ('progress' in reply) {
        task.onProgress?.(reply.progress);
        return;
      }
      this.finish(slot);
      if (reply.ok) task.resolve(reply.result);
      else task.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name, ...(reply.error.code ? { code: reply.error.code } : {}) }));
      this.next(slot);
    });
    worker.on('error', (err) => void this.end(slot, err));
    worker.on('exit', (code) => void this.end(slot, new Error(`the ${this.options.name} worker stopped (exit code ${code})`)));
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.task = task;
    slot.worker.ref();
    slot.taskTimer = setTimeout(() => void this.end(slot, new Error(`the ${this.options.name} task took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    slot.taskTimer.unref();
    void this.send(slot, task).catch((err: unknown) => {
      if (slot.task !== task) return;
      this.finish(slot);
      task.reject(err);
      this.next(slot);
    });
  }

  /** The task's input, then its parts one message each, yielding to the event loop between them. */
  private async send(slot: Slot, task: Task): Promise<void> {
    slot.worker.postMessage({ kind: 'start', input: task.input, parts: task.parts.length }, task.transfer);
    for (const part of task.parts) {
      await new Promise((resolve) => setImmediate(resolve));
      if (slot.task !== task) return;
      slot.worker.postMessage({ kind: 'part', part });
    }
  }

  private finish(slot: Slot): void {
    if (slot.taskTimer) clearTimeout(slot.taskTimer);
    slot.taskTimer = null;
    slot.task = null;
  }

  /** The next waiting task, or rest (unref'd, ended after idleMs). */
  private next(slot: Slot): void {
    const task = this.queue.shift();
    if (task) return this.start(slot, task);
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => void this.end(slot, null), this.idleMs);
    slot.idleTimer.unref();
  }

  /** Ends a worker (its task, if any, fails with `err`); a waiting task gets a new one. */
  private async end(slot: Slot, err: Error | null): Promise<void> {
    if (!this.slots.delete(slot)) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const task = slot.task;
    this.finish(slot);
    if (task) task.reject(err ?? new Error(`the ${this.options.name} worker ended`));
    const queued = !this.closed ? this.queue.shift() : undefined;
    if (queued) this.start(this.spawn(), queued);
    await slot.worker.terminate().catch(() => undefined);
  }
}

/**
 * At most `limit` tasks at once per key (a patient): `acquire` answers a release function, or
 * null when the key is at its limit. In this process only (each process has its own workers).
 */
export class KeyedLimiter {
  private readonly running = new Map<string, number>();

  constructor(private readonly limit = 1) {}

  busy(key: string): boolean {
    return (this.running.get(key) ?? 0) >= this.limit;
  }

  acquire(key: string): (() => void) | null {
    const count = this.running.get(key) ?? 0;
    if (count >= this.limit) return null;
    this.running.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left <= 0) this.running.delete(key);
      else this.running.set(key, left);
    };
  }
}

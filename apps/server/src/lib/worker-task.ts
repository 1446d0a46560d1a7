import { parentPort, type Transferable } from 'node:worker_threads';

/**
 * The worker side of a WorkerPool (worker-pool.ts): a task comes as its input, then its parts
 * (one message each); the handler's answer goes back (its `transfer` buffers handed over, not
 * copied), or its error's name, message and code. One task at a time: the pool sends the next
 * when this one answers. Meanwhile the handler may report how far it is (`progress`, a fraction
 * from 0 to 1), which the pool hands to the task's `onProgress`.
 */
type Message = { kind: 'start'; input: unknown; parts: number } | { kind: 'part'; part: unknown };

export function serveTasks<In, Out, Part = never>(handler: (input: In, parts: Part[], progress: (fraction: number) => void) => Promise<{ result: Out; transfer?: Transferable[] }>): void {
  if (!parentPort) throw new Error('serveTasks runs in a worker thread');
  const port = parentPort;
  let current: { input: In; expected: number; parts: Part[] } | null = null;
  const progress = (fraction: number) => port.postMessage({ progress: Math.min(1, Math.max(0, fraction)) });
  const run = (input: In, parts: Part[]) =>
    handler(input, parts, progress).then(
      ({ result, transfer }) => port.postMessage({ ok: true, result }, transfer ?? []),
      (err: unknown) => {
        const e = err instanceof Error ? (err as Error & { code?: unknown }) : new Error(String(err));
        port.postMessage({ ok: false, error: { name: e.name, message: e.message, ...('code' in e && typeof e.code === 'string' ? { code: e.code } : {}) } });
      },
    );
  port.on('message', (message: Message) => {
    if (message.kind === 'start') current = { input: message.input as In, expected: message.parts, parts: [] };
    else current?.parts.push(message.part as Part);
    if (current && current.parts.length === current.expected) {
      const { input, parts } = current;
      current = null;
      void run(input, parts);
    }
  });
}

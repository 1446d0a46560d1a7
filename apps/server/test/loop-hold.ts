/**
 * How long the event loop was held over an interval, for the tests that prove heavy work leaves it
 * free (stalls.int.test.ts, the Apple Health reader's): start it, and the function it answers gives
 * the interval's wall time, but never more than the CPU time this process used meanwhile. On this
 * shared 2-core machine other processes (the other test worker, the neighbours) can keep ours from
 * running for a while, which delays a timer or an answer without the code holding the loop; code
 * that holds it uses the CPU the whole time, so a hold of seconds still counts in full. (The
 * process's CPU counts all its threads, libuv's pool included: never less than the loop's own.)
 */
export function holdTimer(): () => number {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return Math.min(performance.now() - wall, (used.user + used.system) / 1000);
  };
}

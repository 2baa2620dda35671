import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Stops a child process the way our scripts stop the servers they start: SIGTERM, so it drains
 * (requests answered, jobs done, its database closed), then SIGKILL if it is still running after
 * `graceMs`. Resolves once it has exited, with its exit code (null after a signal).
 */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
  return child.exitCode;
}

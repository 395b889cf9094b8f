// The nice value of each thread of this process, as `top -H` shows it: field 19 of
// /proc/self/task/<tid>/stat (Linux), the main thread first.
import { readdirSync, readFileSync } from 'node:fs';

export function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task')
    .map(Number)
    .sort((a, b) => a - b)
    .map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
}

/** How many threads of this process run at the lowest priority (nice 19). */
export const lowestPriorityThreads = (): number => threadNiceValues().filter((nice) => nice === 19).length;

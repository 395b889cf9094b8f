// The request's storage deadline (adapters/storage-deadline.ts): one budget for all the store calls of a
// request, spent while it waits for a store; a call still waiting when it runs out is abandoned, and the
// calls after it are refused at once. Outside a request, and after a request that answered in time, calls are
// bounded by their stores' own timeouts only.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  StorageDeadlineError,
  storageDeadlinePassed,
  withinStorageDeadline,
  withStorageDeadline,
} from '../../adapters/storage-deadline.ts';

const never = () => new Promise<never>(() => {});
const after = <T>(ms: number, value: T) => sleep(ms).then(() => value);

describe('the storage deadline of a request', () => {
  it('abandons a call still waiting when the time runs out, and refuses the next ones at once', async () => {
    await withStorageDeadline(100, async () => {
      const started = performance.now();
      await expect(withinStorageDeadline(never)).rejects.toBeInstanceOf(StorageDeadlineError);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(95);
      expect(waited).toBeLessThan(400);
      expect(storageDeadlinePassed()).toBe(true);
      let ran = false;
      const refused = performance.now();
      await expect(
        withinStorageDeadline(async () => {
          ran = true;
          return 1;
        }),
      ).rejects.toBeInstanceOf(StorageDeadlineError);
      expect(ran).toBe(false);
      expect(performance.now() - refused).toBeLessThan(50);
    });
  });

  it('is one budget for all the calls, not one per call', async () => {
    await withStorageDeadline(150, async () => {
      expect(await withinStorageDeadline(() => after(60, 'a'))).toBe('a');
      expect(await withinStorageDeadline(() => after(60, 'b'))).toBe('b');
      // 120 ms spent: a third call of 60 ms no longer fits.
      await expect(withinStorageDeadline(() => after(60, 'c'))).rejects.toBeInstanceOf(StorageDeadlineError);
    });
  });

  it('counts only the time spent waiting for a store: not a slow upload, nor a password hash between two calls', async () => {
    await withStorageDeadline(150, async () => {
      await sleep(200);
      // 90 ms waiting for stores in 390 ms of request.
      for (const step of ['account', 'limit', 'session']) {
        expect(await withinStorageDeadline(() => after(30, step))).toBe(step);
        await sleep(100);
      }
    });
  });

  it('counts calls in flight together once', async () => {
    await withStorageDeadline(100, async () => {
      const three = await Promise.all([60, 60, 60].map((ms, i) => withinStorageDeadline(() => after(ms, i))));
      expect(three).toEqual([0, 1, 2]);
      await expect(withinStorageDeadline(() => after(60, 'one more'))).rejects.toBeInstanceOf(StorageDeadlineError);
    });
  });

  it('bounds nothing outside a request, nor what a request that answered in time left running', async () => {
    expect(await withinStorageDeadline(() => after(30, 'sweep'))).toBe('sweep');
    let leftBehind: Promise<string> | undefined;
    await withStorageDeadline(50, async () => {
      expect(await withinStorageDeadline(() => after(10, 'answer'))).toBe('answer');
      leftBehind = sleep(20).then(() => withinStorageDeadline(() => after(100, 'background')));
    });
    expect(await leftBehind).toBe('background');
  });

  it('keeps requests apart: one running out does not touch another', async () => {
    const slow = withStorageDeadline(50, () => withinStorageDeadline(never)).catch((error: unknown) => error);
    const quick = withStorageDeadline(1000, async () => {
      await sleep(100);
      return withinStorageDeadline(() => after(10, 'fine'));
    });
    expect(await slow).toBeInstanceOf(StorageDeadlineError);
    expect(await quick).toBe('fine');
  });
});

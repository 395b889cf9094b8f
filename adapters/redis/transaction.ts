import type { ChainableCommander } from 'ioredis';

/** MULTI reports a failed command in its results instead of rejecting: surface it. */
export async function execOrThrow(tx: ChainableCommander): Promise<void> {
  const results = await tx.exec();
  if (results === null) throw new Error('Redis transaction aborted');
  for (const [error] of results) if (error) throw error;
}

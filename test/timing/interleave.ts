// Timing two kinds of request against each other, as someone probing the service would: one after the
// other, alternating, each from a client address never seen before (so that no limit answers in their
// place). The order within each round alternates too (a-b, then b-a), so that whatever the previous
// request left behind weighs on both kinds alike, and a few untimed rounds come first so that the first
// timed samples do not pay for compiling code or filling caches.
//
// Each sample is the fastest of a few requests of its kind, sent in alternation with the other kind's:
// on a busy machine most of a request's time can be waiting for a core, and that wait is noise that only
// ever adds. The fastest of a few is close to what the request path itself costs, which is what a
// difference between the two kinds shifts, and what someone probing the service estimates the same way,
// by repeating. Both kinds are sampled alike, so the comparison stays symmetric.

/**
 * Prepares one request (untimed), sends it, checks the answer, waits for what it set off (an e-mail), and
 * returns the request's time as its client saw it, in milliseconds (see timed-http.ts).
 */
export type Probe = () => Promise<number>;

export interface InterleavedOptions {
  /** Samples of each kind. */
  samples: number;
  /** Requests of each kind per sample, the fastest of which is the sample. */
  perSample: number;
  /** Untimed requests of each kind before the first timed one. */
  warmup: number;
  /** A pause after every request, so that work the service does after answering is over before the next one. */
  gapMs?: number;
}

export async function interleaved(a: Probe, b: Probe, options: InterleavedOptions): Promise<{ a: number[]; b: number[] }> {
  const samples = { a: [] as number[], b: [] as number[] };
  const pause = () => new Promise((resolve) => setTimeout(resolve, options.gapMs ?? 10));
  const run = async (probe: Probe) => {
    const ms = await probe();
    await pause();
    return ms;
  };
  for (let i = 0; i < options.warmup; i += 1) {
    await run(a);
    await run(b);
  }
  let round = 0;
  for (let i = 0; i < options.samples; i += 1) {
    let fastestA = Infinity;
    let fastestB = Infinity;
    for (let j = 0; j < options.perSample; j += 1) {
      const aFirst = round++ % 2 === 0;
      const first = await run(aFirst ? a : b);
      const second = await run(aFirst ? b : a);
      fastestA = Math.min(fastestA, aFirst ? first : second);
      fastestB = Math.min(fastestB, aFirst ? second : first);
    }
    samples.a.push(fastestA);
    samples.b.push(fastestB);
  }
  return samples;
}

let ipCounter = 0;
/**
 * A client address never used before in this process (198.18.0.0/15, the range set aside for benchmarks):
 * the services of the timing tests trust one proxy, so X-Forwarded-For names the client.
 */
export function freshIp(): string {
  ipCounter += 1;
  return `198.${18 + ((ipCounter >> 16) & 1)}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

// What a page costs on the network, as Chromium itself counts it (CDP Network events): every request the
// page's tab makes, redirects included, with the bytes received for it (headers and body, as they came
// over the wire, that is compressed when they were) and whether the browser's cache answered it instead.
import type { CDPSession, Page } from 'playwright-core';

export interface WireRequest {
  url: string;
  method: string;
  status?: number;
  /** The response's Content-Encoding (`gzip`, `br`, …), or '' when it came as is. */
  encoding: string;
  /** Bytes received for it: the response's headers and its body as sent. */
  bytes: number;
  /** Answered by the browser's own cache: nothing went over the network. */
  fromCache: boolean;
  failed: boolean;
}

export interface Wire {
  /** The page's CDP session (for throttling the page, say). */
  cdp: CDPSession;
  /** Every request seen so far, in the order they were made. */
  requests(): WireRequest[];
  /** The requests that went over the network (not answered by the cache), their count and bytes. */
  sent(): { requests: number; bytes: number };
  /**
   * Resolves once no request has been under way for `quietMs`: the browser fetches the page's icon after
   * the page's `load` event, outside what Playwright's `networkidle` waits for.
   */
  settled(quietMs?: number): Promise<void>;
  /** Forgets what was seen so far, to count a next step on its own. */
  reset(): void;
}

interface CdpResponse {
  status: number;
  headers: Record<string, string>;
  encodedDataLength: number;
  fromDiskCache?: boolean;
  fromPrefetchCache?: boolean;
  fromServiceWorker?: boolean;
}

const headerOf = (headers: Record<string, string>, name: string): string =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? '';

/** Starts counting the requests of `page`'s tab. */
export async function watchWire(page: Page): Promise<Wire> {
  const cdp = await page.context().newCDPSession(page);
  let seen: WireRequest[] = [];
  let current = new Map<string, WireRequest>();
  const pending = new Set<string>();
  let lastActivity = performance.now();
  const busy = (requestId: string, underWay: boolean) => {
    if (underWay) pending.add(requestId);
    else pending.delete(requestId);
    lastActivity = performance.now();
  };
  const answered = (entry: WireRequest, response: CdpResponse) => {
    entry.status = response.status;
    entry.encoding = headerOf(response.headers, 'content-encoding');
    if (response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker) entry.fromCache = true;
  };
  cdp.on('Network.requestWillBeSent', (event) => {
    // A redirect keeps its request id: the hop that ended is complete with its redirect response.
    const previous = current.get(event.requestId);
    if (previous && event.redirectResponse) {
      answered(previous, event.redirectResponse);
      previous.bytes = event.redirectResponse.encodedDataLength;
    }
    const entry: WireRequest = {
      url: event.request.url,
      method: event.request.method,
      encoding: '',
      bytes: 0,
      fromCache: false,
      failed: false,
    };
    current.set(event.requestId, entry);
    seen.push(entry);
    busy(event.requestId, true);
  });
  cdp.on('Network.requestServedFromCache', (event) => {
    const entry = current.get(event.requestId);
    if (entry) entry.fromCache = true;
  });
  cdp.on('Network.responseReceived', (event) => {
    const entry = current.get(event.requestId);
    if (entry) answered(entry, event.response);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const entry = current.get(event.requestId);
    if (entry) entry.bytes = event.encodedDataLength;
    busy(event.requestId, false);
  });
  cdp.on('Network.loadingFailed', (event) => {
    const entry = current.get(event.requestId);
    if (entry) entry.failed = true;
    busy(event.requestId, false);
  });
  await cdp.send('Network.enable');
  return {
    cdp,
    requests: () => [...seen],
    sent() {
      const network = seen.filter((request) => !request.fromCache && !request.failed);
      return { requests: network.length, bytes: network.reduce((sum, request) => sum + request.bytes, 0) };
    },
    async settled(quietMs = 1000) {
      const deadline = performance.now() + 30_000;
      while (pending.size > 0 || performance.now() - lastActivity < quietMs) {
        if (performance.now() > deadline) throw new Error(`requests still under way after 30 s: ${pending.size}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    reset() {
      seen = [];
      current = new Map();
      pending.clear();
    },
  };
}

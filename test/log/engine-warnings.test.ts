// The engine's console warnings become log lines of the service that runs it; other console lines stay.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { routeEngineWarnings } from '../../src/log/engine-warnings.ts';

describe('engine warnings', () => {
  const stops: Array<() => void> = [];
  afterEach(() => stops.splice(0).forEach((stop) => stop()));

  it('are written as JSON warn lines through the logger, colours removed', () => {
    const text: string[] = [];
    const logger = createLogger({ level: 'info', pretty: false, destination: { write: (line: string) => void text.push(line) } });
    stops.push(routeEngineWarnings(logger));
    const printed = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      console.warn('\x1b[31;1moidc-provider WARNING: already parsed request body detected\x1b[0m');
    } finally {
      printed.mockRestore();
    }
    expect(text.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 'warn', source: 'engine', msg: 'already parsed request body detected' }),
    ]);
  });
});

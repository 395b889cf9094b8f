// The devices of the account page's list, named from real User-Agent headers as a person would name
// them: the browser first for the browsers that also claim Chrome or Safari, the system as its users
// call it.
import { describe, expect, it } from 'vitest';
import { describeDevice, deviceKey, deviceName, fromDeviceKey } from '../../src/accounts/device-name.ts';
import { translator } from '../../src/i18n/index.ts';

const HEADERS: Array<[string, string, string]> = [
  [
    'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
    'Chrome sur Android',
    'Chrome on Android',
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-A135F) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
    'Samsung Internet sur Android',
    'Samsung Internet on Android',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    'Safari sur iPhone',
    'Safari on iPhone',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
    'Chrome sur iPhone',
    'Chrome on iPhone',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67',
    'Edge sur Windows',
    'Edge on Windows',
  ],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox sur Windows', 'Firefox on Windows'],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
    'Safari sur Mac',
    'Safari on Mac',
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0',
    'Opera sur Linux',
    'Opera on Linux',
  ],
  ['curl/8.5.0', 'Appareil inconnu', 'Unknown device'],
  ['', 'Appareil inconnu', 'Unknown device'],
];

describe('device names', () => {
  it.each(HEADERS)('%s', (header, fr, en) => {
    const device = deviceName(header);
    expect(describeDevice(device, translator('fr'))).toBe(fr);
    expect(describeDevice(device, translator('en'))).toBe(en);
    // What is stored reads back as the same device.
    expect(fromDeviceKey(deviceKey(device))).toEqual(device);
  });

  it('names the system alone, or the browser alone, when only one is known', () => {
    expect(describeDevice(deviceName('SomeApp/1.0 (Linux; Android 14)'), translator('fr'))).toBe('Un navigateur sur Android');
    expect(describeDevice(deviceName('Mozilla/5.0 Firefox/125.0'), translator('fr'))).toBe('Firefox');
  });

  it('keeps nothing of the header but the two names', () => {
    const device = deviceName('Mozilla/5.0 (Linux; Android 14; SM-A546B Build/UP1A.231005.007) Chrome/124.0.6367.82 Mobile');
    expect(device).toEqual({ browser: 'Chrome', os: 'Android' });
    expect(deviceKey(device)).toBe('Chrome/Android');
  });
});

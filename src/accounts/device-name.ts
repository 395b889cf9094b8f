// A device in plain words, from the browser's User-Agent header: its browser and its system, as a person
// names them ("Chrome" and "Android", "Safari" and "iPhone"), for the account page's list of signed-in
// devices and the new-device notice. Only those two names are kept: never the full header, never a
// version, never the IP or a place. A few lines of our own rather than a library: the list shows names a
// person recognises, and a header too odd to name (a script, a rare browser) is "unknown", which is
// fine for that. Order matters: most browsers also claim to be Chrome or Safari, so the specific tokens
// are looked for first.
import type { Translate } from '../i18n/index.ts';

export interface DeviceName {
  /** "Chrome", "Firefox", "Safari"… or undefined when the header names none we know. */
  browser?: string;
  /** "Android", "iPhone", "Windows"… or undefined. */
  os?: string;
}

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|OPiOS|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bYaBrowser\//, 'Yandex'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(CriOS|Chrome|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\biPhone\b|\biPod\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'Mac'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (list: ReadonlyArray<[RegExp, string]>, header: string): string | undefined => list.find(([re]) => re.test(header))?.[1];

export function deviceName(userAgent: string | undefined): DeviceName {
  // A header longer than any real browser's is not read further (and not a reason to work hard).
  const header = (userAgent ?? '').slice(0, 512);
  return { browser: first(BROWSERS, header), os: first(SYSTEMS, header) };
}

/** The device as stored: "browser/os", each part empty when unknown (names never hold a slash). */
export function deviceKey(device: DeviceName): string {
  return `${device.browser ?? ''}/${device.os ?? ''}`;
}

export function fromDeviceKey(key: string): DeviceName {
  const [browser, os] = key.split('/');
  return { ...(browser ? { browser } : {}), ...(os ? { os } : {}) };
}

/** The device as a person reads it: "Chrome sur Android", "Firefox", "Un navigateur sur Windows". */
export function describeDevice(device: DeviceName, t: Translate): string {
  if (device.browser && device.os) return t('device.browserOn', { browser: device.browser, os: device.os });
  if (device.browser) return device.browser;
  if (device.os) return t('device.someBrowserOn', { os: device.os });
  return t('device.unknown');
}

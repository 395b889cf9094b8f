// The name a new passkey is given, until its owner renames it: the device it was created on, in plain
// words ("Chrome sur Android"), as the list of signed-in devices names them.
import { describeDevice, deviceName } from '../accounts/device-name.ts';
import { translator, type Locale } from '../i18n/index.ts';

export function passkeyName(userAgent: string | undefined, locale: Locale): string {
  return describeDevice(deviceName(userAgent), translator(locale));
}

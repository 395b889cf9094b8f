// A number newly verified does not sign in alone for phone.coolingOffHours (72 by default): a SIM taken
// over on the day the number is added would otherwise stand for the account at once. The owner's e-mail
// address is told of the new number when it is added (src/mail/phone-notice.ts), so that they can react
// within that time. The password still signs in meanwhile.

/** Whether a number verified at `verifiedAt` is still in its cooling-off period at `now`. */
export function inCoolingOff(verifiedAt: Date, hours: number, now: Date = new Date()): boolean {
  return now.getTime() - verifiedAt.getTime() < hours * 3600 * 1000;
}

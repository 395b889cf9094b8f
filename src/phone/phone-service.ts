// Phone sign-in as the service builds it once (src/service.ts): the stores, the limits, the budget, the
// gateway and the SIM-swap check of the `phone` section; undefined when the section is off.
import type { Cluster, Redis } from 'ioredis';
import type { Queryable } from '../../adapters/sql/database.ts';
import type { PhoneConfig } from '../config/phone-schema.ts';
import { MessageBudget } from './budget.ts';
import { PhoneCodeStore } from './code-store.ts';
import { createGateway } from './gateways/create-gateway.ts';
import type { CodeGateway } from './gateways/gateway.ts';
import { createPhoneLimits } from './limits.ts';
import { PhoneNumberStore } from './phone-numbers.ts';
import { PhoneSignIn } from './phone-sign-in.ts';
import { simSwapCheck, type SimSwapCheck } from './sim-swap.ts';

export interface PhoneService {
  config: PhoneConfig;
  signIn: PhoneSignIn;
  numbers: PhoneNumberStore;
}

export interface PhoneServiceStores {
  db: Queryable;
  redis?: Redis | Cluster;
  redisKeyPrefix?: string;
  /** The installation's cookie keys: they key the codes' HMAC. */
  keys: readonly string[];
  /** Called when an account's number changes (the account caches drop it). */
  accountChanged: (accountId: string) => void;
  /** Tests give their own gateway or SIM-swap check, and a clock. */
  gateway?: CodeGateway;
  simSwap?: SimSwapCheck;
  now?: () => Date;
}

export function createPhoneService(
  config: { issuer: string; phone: PhoneConfig; branding: { serviceName?: string } },
  stores: PhoneServiceStores,
): PhoneService | undefined {
  const phone = config.phone;
  const gateway = stores.gateway ?? createGateway(phone);
  if (!phone.enabled || !gateway) return undefined;
  const numbers = new PhoneNumberStore(stores.db, stores.accountChanged);
  const signIn = new PhoneSignIn({
    config: { ...phone, issuer: config.issuer, serviceName: config.branding.serviceName },
    codes: new PhoneCodeStore(stores.db, stores.keys),
    numbers,
    limits: createPhoneLimits(phone.limits, stores),
    budget: new MessageBudget(stores.db, phone.dailyBudget),
    gateway,
    simSwap: stores.simSwap ?? simSwapCheck(phone.simSwap),
    now: stores.now,
  });
  return { config: phone, signIn, numbers };
}

// An account as the operator sees it (`signin user list|show`, the data export). Built field by field,
// so that the password hash can never reach the output by way of a spread.
import type { AccountDetails } from '../accounts/store.ts';

export function accountView(account: AccountDetails) {
  return {
    id: account.id,
    email: account.email,
    email_verified: account.emailVerified,
    username: account.username,
    first_name: account.firstName,
    created_at: account.createdAt.toISOString(),
    updated_at: account.updatedAt.toISOString(),
    disabled_at: account.disabledAt?.toISOString() ?? null,
  };
}

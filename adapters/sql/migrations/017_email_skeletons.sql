-- Addresses that are one address to a reader are one address: `alice@exаmple.org` (a Cyrillic а) beside
-- `alice@example.org`, or one internationalized domain written two ways (`bücher.example`,
-- `xn--bcher-kva.example`). Each account keeps the confusable skeleton of its address (computed by the
-- service, src/accounts/email-skeleton.ts), unique like the address itself. Accounts created before this
-- migration get theirs, and their domain in its stored form (the A-label), when the service next starts
-- (src/accounts/email-skeleton-backfill.ts). Two old accounts whose addresses were already one both stay:
-- the older holds the skeleton, the newer keeps NULL, which the index allows.
ALTER TABLE accounts ADD COLUMN email_skeleton text;
CREATE UNIQUE INDEX accounts_email_skeleton_key ON accounts (email_skeleton);

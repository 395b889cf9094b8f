-- Each authorization request reads the newest consent of its user and application (consents/store.ts,
-- `latest`). The primary key finds the pair's rows, but every grant given to the pair has its own row
-- (an application asking prompt=consent at each sign-in adds one each time), and all of them were read
-- and sorted for the newest: thousands for one busy pair. In this order the newest is the first entry.
CREATE INDEX consents_latest_idx ON consents (account_id, client_id, created_at DESC);

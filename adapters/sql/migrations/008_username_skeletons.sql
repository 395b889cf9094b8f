-- Usernames that only look alike (`ａｌｉｃｅ`, `аlice` with a Cyrillic а, `aIice`) are one name: each
-- account keeps the confusable skeleton of its username (Unicode TS #39, computed by the service in
-- src/accounts/username-key.ts), unique like the username itself. Accounts created before this
-- migration get theirs when the service next starts (src/accounts/username-skeletons.ts); until then,
-- and for two old accounts that already looked alike, the column stays NULL, which the index allows.
ALTER TABLE accounts ADD COLUMN username_skeleton text;
CREATE UNIQUE INDEX accounts_username_skeleton_key ON accounts (username_skeleton);

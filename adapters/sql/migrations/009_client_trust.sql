-- What the consent screen tells a user about an application, beyond the name its owner chose: its
-- logo, privacy policy and terms of service (https URLs given by the owner), and whether an operator
-- has verified who publishes it (`signin client verify ID`). The logo is shown only once verified:
-- before that, anyone could dress an application in another's colours.
ALTER TABLE clients ADD COLUMN logo_uri text;
ALTER TABLE clients ADD COLUMN policy_uri text;
ALTER TABLE clients ADD COLUMN tos_uri text;
ALTER TABLE clients ADD COLUMN verified_at timestamptz;

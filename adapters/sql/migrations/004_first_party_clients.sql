-- Applications that belong to the service itself (the developer portal): their users are not asked to
-- consent, the consent step grants their registered scopes at once, and the account page does not list
-- them among the applications a user shared data with. Set only by ClientRegistry.ensureFirstPartyClient.
ALTER TABLE clients ADD COLUMN first_party boolean NOT NULL DEFAULT false;

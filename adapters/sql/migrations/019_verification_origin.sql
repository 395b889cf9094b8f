-- A verification link sent at a sign-up inside an authorization remembers where the user was going: the
-- application (`client_id`) and the sign-in it came from (`interaction_uid`), so that the link's pages can
-- name the application and lead back to that sign-in (/interaction/<uid>), never to a redirect URI. Both
-- NULL for every other link: a re-sent one, a reset, a change of address, and the links issued before.
ALTER TABLE email_tokens ADD COLUMN client_id text;
ALTER TABLE email_tokens ADD COLUMN interaction_uid text;

-- `server` now means a backend calling for itself with the client_credentials grant: no user, no
-- redirect URI, no scope. Applications registered as `server` before that behaved exactly like `web`
-- (a user signs in, a code comes back to their redirect URI), so they become `web` and keep working.
UPDATE clients SET app_type = 'web' WHERE app_type = 'server' AND jsonb_array_length(redirect_uris) > 0;

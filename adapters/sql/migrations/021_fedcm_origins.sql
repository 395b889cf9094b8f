-- The browser origins, besides those of its redirect URIs, from which an application may ask for a sign-in
-- through the browser's own account chooser (FedCM). Each is an https origin (scheme, host, port; no path),
-- checked as a redirect URI is; empty for every application registered before.
ALTER TABLE clients ADD COLUMN fedcm_origins jsonb NOT NULL DEFAULT '[]'::jsonb;

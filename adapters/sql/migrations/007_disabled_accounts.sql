-- An administrator can disable an account (`signin user disable`): its password no longer signs in,
-- and its sessions and grants are ended when it is disabled. `enable` clears the mark.
ALTER TABLE accounts ADD COLUMN disabled_at timestamptz;

-- Operator sign-in in steps (issue 23): a forced password change for new operators and after a
-- reset, then TOTP (RFC 6238) enrolment or a code. A session is usable beyond those steps only
-- once its stage is 'ready' (packages/api OPERATOR_SESSION_STAGES).
ALTER TABLE operators ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
-- base32 secret of the enrolled authenticator; never sent back once enrolment is confirmed
ALTER TABLE operators ADD COLUMN totp_secret text;
-- a secret shown for enrolment, not confirmed by a code yet
ALTER TABLE operators ADD COLUMN totp_pending_secret text;
ALTER TABLE operators ADD COLUMN totp_enabled_at timestamptz;
-- the last 30-second step a code was accepted for: a code (or an older one) never counts twice
ALTER TABLE operators ADD COLUMN totp_last_step bigint;

ALTER TABLE operator_sessions ADD COLUMN stage text NOT NULL DEFAULT 'ready'
  CHECK (stage IN ('password', 'totp_setup', 'totp', 'ready'));
ALTER TABLE operator_sessions ALTER COLUMN stage DROP DEFAULT;
-- sessions opened before the second factor existed end: every operator signs in again with it
UPDATE operator_sessions SET revoked_at = now() WHERE revoked_at IS NULL;

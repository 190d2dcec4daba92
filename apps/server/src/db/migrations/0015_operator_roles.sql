-- Operators who answer the help centre's chats: the 'support' role (packages/api OPERATOR_ROLES).
ALTER TABLE operators DROP CONSTRAINT operators_role_check;
ALTER TABLE operators ADD CONSTRAINT operators_role_check CHECK (role IN ('admin', 'reviewer', 'support'));

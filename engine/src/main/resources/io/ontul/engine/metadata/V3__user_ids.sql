-- A random id for each user, new every time a user is created: bearer tokens name it, so the
-- tokens of a dropped user are not inherited by a user created later under the same name.
-- Users created before this migration have none until they are created again.
ALTER TABLE ontul_users ADD COLUMN user_id VARCHAR(64);

-- The Idempotency-Key a message was sent with (POST messages): a key already stored is the same
-- message delivered again (the site's outbox retries), answered with the stored message's id.
-- Messages sent without the header keep NULL, which the unique index does not count.
ALTER TABLE messages ADD COLUMN idempotency_key TEXT;

CREATE UNIQUE INDEX IF NOT EXISTS messages_idempotency_key ON messages (idempotency_key) WHERE idempotency_key IS NOT NULL;

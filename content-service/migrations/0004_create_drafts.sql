-- Editors' drafts: at most one per page call, the payload a call answers to the editors' token
-- (EDITOR_TOKEN) until it is published into `pages`. endpoint: get-home-page | get-about-page |
-- get-enterprises-page | contact-us | navbar-data (see src/routes/drafts.ts).
CREATE TABLE IF NOT EXISTS drafts (
  endpoint TEXT PRIMARY KEY,
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Page payloads, one JSON document per call of spec section 7, as the site reads them.
-- slug: home | about | enterprises | contact-us | navbar (see src/queries.ts).
CREATE TABLE IF NOT EXISTS pages (
  slug TEXT PRIMARY KEY,
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Document-head meta data per page key: '/', '/about', '/enterprises', '/contact-us'.
CREATE TABLE IF NOT EXISTS page_meta (
  page TEXT PRIMARY KEY,
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

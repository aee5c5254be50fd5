/** Test-only bindings added by vitest.config.ts (see its header). */
import type { D1Migration } from 'cloudflare:test'

type HeaderFixture =
  'gif' | 'webpLossy' | 'webpLossless' | 'webpExtended' | 'avif' | 'jpegProgressive' | 'jpegExifIcc'

declare global {
  namespace Cloudflare {
    interface Env {
      /** Content-service project only: the service's own database (content-service/wrangler.toml). */
      CONTENT_DB: D1Database
      /** content-service/migrations, read at config time. */
      TEST_CONTENT_MIGRATIONS: D1Migration[]
      /** The seed SQL statements of content-service/scripts/seed-sql.mjs. */
      TEST_CONTENT_SEED: string[]
      /** Site-relative images named in the seed but missing from public/ (should be empty). */
      TEST_CONTENT_MISSING_IMAGES: string[]
      /** Site project only: base64 image bytes for the image route's tests (vitest.config.ts). */
      TEST_IMAGES: {
        cameraJpeg: string
        bombPng: string
        overLimitPng: string
        /** Base64 of a 480×360 image per format (tests/support/setup/format-samples.mjs). */
        samples: Record<'jpeg' | 'png' | 'gif' | 'webp' | 'avif', string>
        /** Base64 of a 96×72 JPEG that transforms in milliseconds (tests/support/setup/format-samples.mjs). */
        smallJpeg: string
      }
      /**
       * Site project only: base64 files in every format the header readers know, and a bomb of each
       * (tests/support/setup/header-fixtures.mjs); `size` is the files' real pixel size.
       */
      TEST_HEADER_FIXTURES: {
        files: Record<HeaderFixture, string>
        bombs: Record<HeaderFixture | 'gifFrame', string>
        size: { width: number; height: number }
      }
      /** Site project only: the content service's D1 database (same id as its CONTENT_DB). */
      TEST_CONTENT_DB: D1Database
    }
  }
}

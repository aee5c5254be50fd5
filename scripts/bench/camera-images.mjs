/**
 * Step `camera-images` (`npm run bench:camera-images`): the image figures of images.mjs for camera
 * uploads: a second site under `wrangler dev` whose API_HOST is the camera-uploads backend
 * (scripts/lib/camera-uploads/: 4000×3000 JPEGs of 2–6 MB, 1600-px PNG icons).
 */
import path from 'node:path'
import { startCameraBackend } from '../lib/camera-uploads/server.mjs'
import { ROOT, startSite } from '../lib/local-site.mjs'
import { imageFigures } from './images.mjs'

export const step = {
  name: 'camera-images',
  title: 'Images on a phone, camera uploads',
  usesSite: false,
  async run({ report, withLighthouse }) {
    const backend = await startCameraBackend({ port: 0 })
    const camera = await startSite({
      vars: { API_HOST: backend.origin },
      production: true,
      persistTo: path.join(ROOT, '.wrangler/bench/camera-state'),
      logFile: path.join(ROOT, '.wrangler/bench/wrangler-camera.log'),
    })
    try {
      await imageFigures('camera uploads', camera.origin, { report, withLighthouse })
    } finally {
      await camera.stop()
      await backend.close()
    }
  },
}

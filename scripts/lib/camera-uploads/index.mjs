/** The camera-uploads scenario: generated photos and the backend that serves them (see each file's header). */
export { cameraPhoto, cameraPhotoPath, PHOTO_DIR } from './photos.mjs'
export { startCameraBackend } from './server.mjs'

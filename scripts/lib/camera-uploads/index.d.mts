export { cameraPhoto, cameraPhotoPath, PHOTO_DIR, type PhotoOptions } from './photos.mjs'
export { startCameraBackend, type CameraBackend, type CameraPhoto } from './server.mjs'

/** Types of photos.mjs (see its header). */
export type PhotoOptions = {
  width?: number
  height?: number
  noise?: number
  quality?: number
  format?: 'jpeg' | 'png'
}
export const PHOTO_DIR: string
export function cameraPhotoPath(name: string, options?: PhotoOptions): Promise<string>
export function cameraPhoto(name: string, options?: PhotoOptions): Promise<Buffer>

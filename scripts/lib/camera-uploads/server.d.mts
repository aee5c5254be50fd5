/** Types of server.mjs (see its header). */
export type CameraPhoto = {
  file: string
  bytes: number
  width: number
  height: number
  type: 'image/jpeg' | 'image/png'
}
export type CameraBackend = {
  origin: string
  photos: Map<string, CameraPhoto>
  close: () => Promise<void>
}
export function startCameraBackend(options?: {
  port?: number
  host?: string
}): Promise<CameraBackend>

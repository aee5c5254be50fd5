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
  /** The calls whose payloads carry the uploads (default: every call); the others keep the bundled images. */
  uploadsIn?: (
    | 'get-home-page'
    | 'get-about-page'
    | 'get-enterprises-page'
    | 'contact-us'
    | 'navbar-data'
    | 'page-meta-data'
  )[]
}): Promise<CameraBackend>

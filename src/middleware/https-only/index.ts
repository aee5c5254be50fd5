export { forwardedScheme, httpsOnly } from './https-only'

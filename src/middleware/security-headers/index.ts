export { securityHeaders } from './security-headers'

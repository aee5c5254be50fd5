export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, securityHeaders } from './security-headers'

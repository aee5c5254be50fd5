export { canonicalPath, language } from './language'

export { language } from './language'

export { reportError, type ErrorKind } from './sentry'

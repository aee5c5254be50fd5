export { reportError, reportBackgroundError, type ErrorKind } from './sentry'

export { reportError, reportScheduledError, type ErrorKind } from './sentry'

export { reportError, reportBackgroundError, type ErrorKind } from './sentry'
export { countryOf, writeVitalsPoint, type DataPoint } from './vitals-dataset'

export { serverTiming } from './server-timing'

/** The backend's content as the rest of the site meets it: the errors its calls end in. */
export { ContentError } from './errors'

export { acceptMessage, type Acceptance } from './outbox'
export { handleContactBatch, handleContactDeadLetterBatch } from './consumer'
export { resendDeadLetters, listDeadLetterIds, type ResendReport } from './dead-letters'
export { writeMessagePoint } from './message-data-point'
export {
  commentsRoom,
  findReferencedProject,
  projectIdOf,
  projectNote,
  projectTitle,
  withProjectNote,
} from './project-reference'
export { CONTACT_MAX_RETRIES, CONTACT_RETRY_DELAYS, delayBefore } from './retry-schedule'

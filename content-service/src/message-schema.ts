/**
 * Server-side validation of POST messages, with the rules and English wording of spec section 5.
 * The reference service does not trust the site's own validation: it is a public endpoint.
 */
import { z } from 'zod'

/** Letters of any script (with their combining marks), spaces, hyphens and apostrophes. */
const NAME_PATTERN = /^[\p{L}\p{M}\s'’-]+$/u
/** The shape zod's own e-mail check accepts, minus quoted local parts: good enough to reject typos. */
const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+.-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/

export const MessageSchema = z.object({
  name: z
    .string({ error: 'Please enter your name' })
    .trim()
    .min(1, 'Please enter your name')
    .min(2, 'Name must be at least 2 characters')
    .max(20, 'Name must be no more than 20 characters')
    .regex(NAME_PATTERN, 'Please enter a valid name (letters only)'),
  email: z
    .string({ error: 'Please enter your email' })
    .trim()
    .min(1, 'Please enter your email')
    .max(254, 'Invalid email format')
    .regex(EMAIL_PATTERN, 'Invalid email format'),
  comments: z
    .string({ error: 'Please enter your message' })
    .trim()
    .min(1, 'Please enter your message')
    .min(2, 'Message must be at least 2 characters')
    .max(500, 'Message must be no more than 500 characters'),
})

export type Message = z.infer<typeof MessageSchema>

/** Placeholder entry; the real app is being written. */
export default {
  fetch() {
    return new Response('starting')
  },
} satisfies ExportedHandler

/**
 * Reading an original's body: a body the runtime streams (fetch, ASSETS) is read READ_CHUNK_BYTES
 * at a time with workerd's own `readAtLeast` (the BYOB reader's "at least n bytes" read), not as it
 * comes: as it comes, workerd hands it over 4 KB a read, nearly 6,000 reads (each a buffer, a view
 * and a promise for the collector) for a 24 MB original, and the bench saw the image route's memory
 * high-water mark at +166–204 MB for 20 such misses, against +97–105 MB read 64 KB at a time.
 */

/**
 * Bytes asked of an original's body per read (the last read of a body may bring fewer): a 24 MB
 * original in about 370 reads instead of 5,900.
 */
export const READ_CHUNK_BYTES = 64 * 1024

/** The reads of a body: `read` and `cancel`, as a stream's default reader has them. */
export type ChunkReader = {
  read: () => Promise<ReadableStreamReadResult<Uint8Array>>
  cancel: (reason?: unknown) => Promise<void>
}

/**
 * `body` read READ_CHUNK_BYTES at a time where it is a byte stream (fetch and ASSETS bodies are),
 * else chunk by chunk as it comes (a stream made in JavaScript).
 */
export function chunkReader(body: ReadableStream<Uint8Array>): ChunkReader {
  let reader: ReadableStreamBYOBReader
  try {
    reader = body.getReader({ mode: 'byob' })
  } catch {
    return body.getReader()
  }
  let ended = false
  return {
    async read() {
      while (!ended) {
        const { done, value } = await reader.readAtLeast(
          READ_CHUNK_BYTES,
          new Uint8Array(READ_CHUNK_BYTES)
        )
        if (done) ended = true
        if (value && value.byteLength > 0) return { done: false, value }
      }
      return { done: true, value: undefined }
    },
    cancel: (reason) => reader.cancel(reason),
  }
}

/** The bytes of `chunks`, one after the other. */
export function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0))
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** reader.read(), or the signal's reason once it aborts: a stalled body never holds the route. */
export function readBefore(reader: ChunkReader, signal: AbortSignal) {
  signal.throwIfAborted()
  let onAbort = () => {}
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      reader.cancel().catch(() => {})
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([reader.read(), aborted]).finally(() =>
    signal.removeEventListener('abort', onAbort)
  )
}

/**
 * The CPU a worker spends on one request under `wrangler dev`, from V8's sampling profiler through
 * wrangler's inspector proxy (the DevTools protocol's Profiler domain, as DevTools' own profiling of
 * a local worker does). workerd freezes the clocks a worker can read between I/O, so a worker
 * cannot time itself; the profiler samples the isolate's thread from outside.
 *
 * What it counts: samples whose frame is JavaScript, the garbage collector or V8's own work
 * ("(program)": compiling, parsing), one sampling interval each; "(idle)" is left out. The profile
 * runs from before the request is sent until its background work (waitUntil) has settled, so it is
 * the invocation's CPU, as Cloudflare bills it. Sampling every 100 µs, a figure is good to about a
 * tenth of a millisecond.
 */

import WebSocket from 'ws'

/** Sampling interval in microseconds. */
const INTERVAL_US = 100

/**
 * Opens a DevTools session on the first worker wrangler's inspector proxy lists (with `ws`: the
 * proxy refuses the handshake of Node's built-in WebSocket).
 * @param {number} inspectorPort
 */
export async function openProfiler(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()
  const target = targets.find((entry) => entry.webSocketDebuggerUrl) ?? targets[0]
  if (!target?.webSocketDebuggerUrl)
    throw new Error(`wrangler's inspector on port ${inspectorPort} lists no worker`)
  const socket = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', (error) => reject(new Error(`inspector connection failed: ${error}`)))
  })
  let next = 0
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
  const waiting = new Map()
  socket.on('message', (data) => {
    const message = JSON.parse(String(data))
    const call = waiting.get(message.id)
    if (!call) return
    waiting.delete(message.id)
    if (message.error) call.reject(new Error(`inspector: ${message.error.message}`))
    else call.resolve(message.result)
  })
  /** @param {string} method @param {object} [params] */
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next
      waiting.set(id, { resolve, reject })
      socket.send(JSON.stringify({ id, method, params }))
    })
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: INTERVAL_US })
  return {
    /**
     * The CPU milliseconds the isolate spent while `work` ran.
     * @param {() => Promise<void>} work
     */
    async measure(work) {
      await send('Profiler.start')
      let failure
      try {
        await work()
      } catch (error) {
        failure = error
      }
      const { profile } = /** @type {{ profile: CpuProfile }} */ (await send('Profiler.stop'))
      if (failure) throw failure
      return busyMs(profile)
    },
    close: () => socket.close(),
  }
}

/**
 * @typedef {{ nodes: { id: number, callFrame: { functionName: string } }[], samples: number[],
 *   timeDeltas: number[] }} CpuProfile
 */

/**
 * Milliseconds of a profile's samples that are not "(idle)", each standing for one sampling
 * interval. workerd's profiler samples the isolate while it runs: a worker waiting for I/O is
 * mostly not sampled at all, so the time between two samples (V8's timeDeltas) may span a wait
 * and is not used. A machine too busy to sample on time makes this an underestimate.
 * @param {CpuProfile} profile
 * @param {number} [intervalUs]
 */
export function busyMs(profile, intervalUs = INTERVAL_US) {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id)
  )
  const busy = profile.samples.filter((sample) => !idle.has(sample)).length
  return (busy * intervalUs) / 1000
}

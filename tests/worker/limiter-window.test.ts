/**
 * tests/support/worker/limiter-window.ts: a burst that straddles the local rate limiter's
 * wall-clock rollover is run again; one within a window runs once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { inOneLimiterWindow } from '../support/worker/limiter-window'

afterEach(() => vi.useRealTimers())

describe('inOneLimiterWindow', () => {
  it('runs a burst once when it ends in the window it started in', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 28, 12, 0, 10) })
    const attempts: number[] = []
    expect(await inOneLimiterWindow(60, async (attempt) => attempts.push(attempt))).toBe(1)
    expect(attempts).toEqual([1])
  })

  it('runs it again when it crossed a rollover, and keeps the run that did not', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 28, 12, 0, 59, 900) })
    const attempts: number[] = []
    const result = await inOneLimiterWindow(60, async (attempt) => {
      attempts.push(attempt)
      if (attempt === 1) vi.setSystemTime(Date.UTC(2026, 10, 28, 12, 1, 0, 200))
      return attempt
    })
    expect(attempts).toEqual([1, 2])
    expect(result).toBe(2)
  })
})

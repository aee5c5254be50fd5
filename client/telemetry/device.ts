/**
 * The visitor's device class (phone, tablet or desktop), from what the browser already says of
 * itself, never a fingerprint: no user-agent string is read or sent, only one of three words.
 *
 * - `navigator.userAgentData.mobile` (Chromium's client hints) where present and true: a phone.
 * - Otherwise the primary pointer: a fine one, or one that can hover, is a desktop (or a laptop,
 *   with or without a touch screen); a coarse one without hover is a touch device, a tablet when
 *   its screen's short side is 600 CSS pixels or more (Android's own phone/tablet line), else a phone.
 */
import type { DeviceClass } from '../../src/shared/telemetry'

const TABLET_SHORT_SIDE_PX = 600

type NavigatorWithUaData = Navigator & { userAgentData?: { mobile?: boolean } }

export function deviceClass(): DeviceClass {
  if ((navigator as NavigatorWithUaData).userAgentData?.mobile === true) return 'phone'
  const touchOnly = matchMedia('(pointer: coarse)').matches && !matchMedia('(hover: hover)').matches
  if (!touchOnly) return 'desktop'
  return Math.min(screen.width, screen.height) >= TABLET_SHORT_SIDE_PX ? 'tablet' : 'phone'
}

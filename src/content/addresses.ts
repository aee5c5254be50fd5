/**
 * The one parser of the CMS's URL-valued fields (images, links, social links, the meta image).
 * Each field is parsed once, when its payload is loaded, into a safe address or '':
 *
 * - an absolute http(s) URL with a host the WHATWG URL parser accepts, no credentials and a port in
 *   range, re-serialized by that parser (so `https://exa mple.com`, `http://[` or port 99999 are '');
 * - a site-relative path that starts with exactly one '/' (never '//' or '/\', which a browser
 *   reads as another host: those are parsed as the absolute addresses they are), with repeated
 *   slashes collapsed, so no later rewrite of its first segment (the language prefix) can turn it
 *   into a protocol-relative link;
 * - for links only, a mailto: or tel: address.
 *
 * Tabs and newlines are removed and surrounding spaces and controls trimmed first, as browsers do
 * (https://url.spec.whatwg.org/#concept-basic-url-parser). Views then only pick: they never see an
 * unparsed address, and a bad value costs its own slot (the slot's fallback applies), not the page.
 */

/** What an address is used for: links may also be mailto: or tel:. */
export type AddressKind = 'image' | 'link'

/** Longer values are not addresses an editor meant (signed CDN URLs stay well below). */
export const MAX_ADDRESS_LENGTH = 4096

/** A base that is never a real host: what resolves against it and stays on it is site-relative. */
const SITE = new URL('https://site.invalid/')
const SCHEME = /^[a-z][a-z0-9+.-]*:/i

/** A parsed address, or why the value is not one (for the content report, src/report/). */
export type AddressCheck = { address: string } | { problem: string }

/** The safe form of `raw`, or '' when it is empty or not a safe address for `kind`. */
export function parseAddress(raw: unknown, kind: AddressKind): string {
  const check = checkAddress(raw, kind)
  return 'address' in check ? check.address : ''
}

/** The safe form of `raw` ('' when empty), or why it is not a safe address for `kind`. */
export function checkAddress(raw: unknown, kind: AddressKind): AddressCheck {
  if (raw === undefined || raw === null) return { address: '' }
  if (typeof raw !== 'string') return { problem: `not text but ${typeof raw}` }
  const value = raw.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  if (value === '') return { address: '' }
  if (value.length > MAX_ADDRESS_LENGTH)
    return { problem: `longer than ${MAX_ADDRESS_LENGTH} characters` }
  if (/[\u0000-\u001f\u007f]/.test(value)) return { problem: 'holds control characters' }
  if (SCHEME.test(value)) return checkAbsolute(value, kind)
  let url: URL
  try {
    url = new URL(value, SITE)
  } catch {
    return { problem: 'malformed' }
  }
  // '//host', '/\host' and '\\host' leave the site: they are absolute addresses without a scheme.
  if (url.origin !== SITE.origin) return checkAbsolute(url.href, kind)
  return { address: `${url.pathname.replace(/\/{2,}/g, '/')}${url.search}${url.hash}` }
}

/** Whether `address` (a parsed one) leaves the site. */
export function isExternalAddress(address: string): boolean {
  return /^https?:/i.test(address)
}

function checkAbsolute(value: string, kind: AddressKind): AddressCheck {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { problem: 'malformed' }
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (url.username || url.password) return { problem: 'holds a user name or password' }
    if (url.hostname === '') return { problem: 'has no host' }
    return { address: url.href }
  }
  if (kind === 'link' && (url.protocol === 'mailto:' || url.protocol === 'tel:')) {
    return url.pathname.trim() === ''
      ? { problem: `empty ${url.protocol} address` }
      : { address: url.href }
  }
  const allowed = kind === 'link' ? 'http(s), mailto: or tel:' : 'http(s)'
  return { problem: `unsafe scheme ${url.protocol} (only ${allowed} or a site path)` }
}

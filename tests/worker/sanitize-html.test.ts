/**
 * The CMS HTML sanitizer (src/content/sanitize-html.ts): what it keeps, and that no hostile markup
 * gets a script, an event handler or a javascript: URL through, whatever the input.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { safeHref, sanitizeHtml } from '../../src/content/sanitize-html'
import { localizeHtml } from '../../src/views/components/rich-text'
import { ALLOWED_ELEMENTS, oracleProblems, parsedText } from '../support/worker/html-oracle'

/**
 * Throws unless `html`, as a browser's parser reads it inside the page's container (parse5, the
 * WHATWG tree construction), holds only allow-listed elements, link attributes and safe links, and
 * sanitizing it again changes nothing.
 */
function expectSafe(html: string) {
  expect(oracleProblems(html), html).toEqual([])
  expect(sanitizeHtml(html), 'sanitizing the output again').toBe(html)
}

/** Markup the sanitizer keeps, and its output. */
const KEPT: [string, string][] = [
  [
    '<p>Homes <strong>built</strong> to <em>last</em></p>',
    '<p>Homes <strong>built</strong> to <em>last</em></p>',
  ],
  ['<ul><li>One</li><li>Two</li></ul>', '<ul><li>One</li><li>Two</li></ul>'],
  ['<ol><li>First<br>line</li></ol>', '<ol><li>First<br>line</li></ol>'],
  ['Line<br/>break', 'Line<br>break'],
  ['<p>Բնակելի <b>համալիր</b> Երևանում</p>', '<p>Բնակելի <b>համալիր</b> Երևանում</p>'],
  [
    '<p>Жилой &laquo;комплекс&raquo; &amp; офисы</p>',
    '<p>Жилой &laquo;комплекс&raquo; &amp; офисы</p>',
  ],
]

/** Hostile markup, and what is left of it. */
const REMOVED: [string, string, string][] = [
  ['script', '<p>ok</p><script>alert(1)</script>', '<p>ok</p>'],
  [
    'script with odd casing and attributes',
    '<ScRiPt type="text/javascript">alert(1)</sCrIpT >after',
    'after',
  ],
  ['style', '<style>body{display:none}</style>text', 'text'],
  ['iframe', '<iframe src="https://evil.example"></iframe>text', 'text'],
  [
    'svg with a script inside',
    '<svg><script>alert(1)</script><a href="x">in</a></svg>after',
    'after',
  ],
  ['math', '<math><mtext><img src=x onerror=alert(1)></mtext></math>after', 'after'],
  ['textarea', '<textarea><script>alert(1)</script></textarea>after', 'after'],
  [
    'noscript',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>after',
    '"&gt;after',
  ],
  ['template', '<template><script>alert(1)</script></template>after', 'after'],
  ['object and embed', '<object data="x.swf"><embed src="x.swf"></object>after', 'after'],
  ['img with an event handler', '<img src=x onerror="alert(1)">', ''],
  [
    'event handlers on allowed tags',
    '<p onclick="alert(1)" onmouseover=alert(1) style="x">t</p>',
    '<p>t</p>',
  ],
  ['a comment hiding a script', '<!-- <script>alert(1)</script> -->text', 'text'],
  ['an unclosed comment', 'text<!-- <script>alert(1)</script>', 'text'],
  ['a conditional comment', '<!--[if IE]><script>alert(1)</script><![endif]-->text', 'text'],
  ['a doctype and CDATA', '<!DOCTYPE html><![CDATA[<script>x</script>]]>text', 'x]]&gt;text'],
  ['a quoted > inside an attribute', '<p title=">"><script>alert(1)</script></p>', '<p></p>'],
  ['a tag cut off by the end', 'text<a href="https://x.example', 'text'],
  ['plaintext', 'a<plaintext><script>alert(1)</script>', 'a'],
  ['form controls', '<form action="/x"><input name=a><button>Go</button></form>after', 'after'],
]

/** Link addresses that run script or leave the allowed schemes, however they are spelled. */
const HOSTILE_HREFS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '  javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'jav&#x61;script:alert(1)',
  'jav&#97;script:alert(1)',
  '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
  'javascript&colon;alert(1)',
  'java&Tab;script:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  '\u0001javascript:alert(1)',
  'javascript&#0000058alert(1)',
]

describe('sanitizeHtml keeps', () => {
  it.each(KEPT)('%s', (input, output) => {
    expect(sanitizeHtml(input)).toBe(output)
  })

  it('turns headings and divs into paragraphs, so CMS text never breaks the page outline', () => {
    expect(sanitizeHtml('<h1>Big</h1><div>Block</div>')).toBe('<p>Big</p><p>Block</p>')
  })

  it('opens external links in a new tab without an opener', () => {
    expect(sanitizeHtml('<a href="https://example.am/a?b=1&amp;c=2" class="x">Go</a>')).toBe(
      '<a href="https://example.am/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">Go</a>'
    )
  })

  it('keeps mailto, tel and relative links in the same tab', () => {
    expect(
      sanitizeHtml(
        '<a href="mailto:info@example.am">m</a><a href="tel:+37410000000">t</a><a href="#top">h</a>'
      )
    ).toBe(
      '<a href="mailto:info@example.am">m</a><a href="tel:+37410000000">t</a><a href="#top">h</a>'
    )
  })

  it('rewrites internal links through internalHref, e.g. to keep the language prefix', () => {
    const html = sanitizeHtml('<a href="/about">About</a>', {
      internalHref: (href) => `/ru${href}`,
    })
    expect(html).toBe('<a href="/ru/about">About</a>')
  })

  it('escapes text and keeps character references as text', () => {
    expect(sanitizeHtml('1 < 2 && 3 > 2 &lt;b&gt;')).toBe('1 &lt; 2 &amp;&amp; 3 &gt; 2 &lt;b&gt;')
  })

  it('closes what the author left open and drops stray end tags', () => {
    expect(sanitizeHtml('<p>Open <em>em</p></strong>')).toBe('<p>Open <em>em</em></p>')
    expect(sanitizeHtml('<ul><li>a<li>b</ul><p>x<p>y')).toBe(
      '<ul><li>a</li><li>b</li></ul><p>x</p><p>y</p>'
    )
  })
})

describe('sanitizeHtml removes', () => {
  it.each(REMOVED)('%s', (_, input, output) => {
    const html = sanitizeHtml(input)
    expect(html).toBe(output)
    expectSafe(html)
  })

  it.each(HOSTILE_HREFS)('a link to %j, keeping its text', (href) => {
    const html = sanitizeHtml(`<a href="${href}">click</a>`)
    expect(html).toBe('click')
  })

  it('treats protocol-relative and backslash addresses as external https links', () => {
    expect(safeHref('//evil.example/x')).toBe('https://evil.example/x')
    expect(safeHref('/\\evil.example/x')).toBe('https://evil.example/x')
  })

  it('never lets a script, event handler or javascript: URL through arbitrary markup', () => {
    const pieces = fc.constantFrom(
      '<',
      '>',
      '/',
      '"',
      "'",
      '=',
      ' ',
      '\t',
      '\n',
      '&',
      '#',
      ';',
      '!',
      '-',
      '--',
      '<!--',
      '-->',
      '</',
      'script',
      'SCRIPT',
      'style',
      'svg',
      'iframe',
      'img',
      'a',
      'p',
      'li',
      'ul',
      'href',
      'src',
      'onerror',
      'onclick',
      'javascript:',
      'java',
      'script:',
      '&#x61;',
      '&colon;',
      'alert(1)',
      'title',
      'text',
      'Երևան'
    )
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
        const html = sanitizeHtml(parts.join(''))
        expectSafe(html)
        // Text may say anything (it is escaped); no tag may carry a script, handler or javascript: URL.
        expect(html).not.toMatch(/<script/i)
        expect((html.match(/<[^>]*>/g) ?? []).join('')).not.toMatch(/\son\w+=|javascript:/i)
      }),
      { numRuns: 2000 }
    )
  })

  it('is idempotent: sanitizing its own output changes nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (input) => {
        const once = sanitizeHtml(input)
        expect(sanitizeHtml(once)).toBe(once)
      }),
      { numRuns: 500 }
    )
  })
})

describe('sanitized HTML, once at load and again at render', () => {
  const pieces = fc.constantFrom(
    '<',
    '>',
    '/',
    '//',
    '\\',
    '"',
    "'",
    '=',
    ' ',
    '\t',
    '\n',
    '&',
    '&amp;',
    '&lt;',
    '#',
    ';',
    '<!--',
    '-->',
    '</',
    'p',
    'li',
    'ul',
    'a',
    'br',
    'em',
    'div',
    'script',
    'href',
    'title',
    '?',
    'x=1',
    '/en',
    '/ru',
    '/about',
    'evil.example',
    'https:',
    'mailto:',
    'javascript:',
    '&#x61;',
    '&colon;',
    'text',
    'Երևան'
  )

  it('is the same after sanitizing it again', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
        const once = sanitizeHtml(parts.join(''))
        expect(sanitizeHtml(once)).toBe(once)
      }),
      { numRuns: 2000 }
    )
  })

  it.each([
    '/en//evil.example',
    '/en/\\evil.example',
    '/en/\t/evil.example',
    '/en/&#x09;/evil.example',
    '/ru/\n//evil.example/x?y=1',
    '/en/\\\\evil.example',
  ])('keeps the internal link %j internal in every language', (href) => {
    const loaded = sanitizeHtml(`<a href="${href}">go</a>`)
    for (const lng of ['hy', 'en', 'ru'] as const) {
      const html = localizeHtml(loaded, lng)
      const address = /href="([^"]*)"/.exec(html)?.[1] ?? ''
      expect(address, `${lng}: ${html}`).toMatch(/^\/(?![/\\])/)
      expect(new URL(address, 'https://site.example').origin).toBe('https://site.example')
      expect(html).not.toContain('target=')
    }
  })

  it('gives internal links the language prefix and leaves external ones alone', () => {
    const loaded = sanitizeHtml(
      '<a href="/about?a=1&amp;b=2">A</a> <a href="https://x.example/">X</a>'
    )
    expect(localizeHtml(loaded, 'ru')).toBe(
      '<a href="/ru/about?a=1&amp;b=2">A</a> <a href="https://x.example/" target="_blank" rel="noopener noreferrer">X</a>'
    )
    expect(localizeHtml(localizeHtml(loaded, 'ru'), 'hy')).toBe(sanitizeHtml(loaded))
  })

  it('writes an "<a href=" only for links, so the render-time rewrite touches nothing else', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
        const loaded = sanitizeHtml(parts.join(''))
        const anchors = loaded.match(/<a href="/g)?.length ?? 0
        expect(localizeHtml(loaded, 'en').match(/<a href="/g)?.length ?? 0).toBe(anchors)
        expectSafe(localizeHtml(loaded, 'en'))
      }),
      { numRuns: 1000 }
    )
  })
})

/** Thousands of parses: seconds on a busy machine, so more than the default 5 s. */
const PROPERTIES = { timeout: 60_000 }

describe(
  'the sanitized HTML as a browser parses it (parse5, an independent HTML parser)',
  PROPERTIES,
  () => {
    /** Every input this file names, plus the shapes CMS editors paste. */
    const corpus = [
      ...KEPT.map(([input]) => input),
      ...REMOVED.map(([, input]) => input),
      ...HOSTILE_HREFS.map((href) => `<a href="${href}">click</a>`),
      '<h1>Big</h1><div>Block</div>',
      '<a href="https://example.am/a?b=1&amp;c=2" class="x">Go</a>',
      '<a href="mailto:info@example.am">m</a><a href="tel:+37410000000">t</a><a href="#top">h</a>',
      '<a href="/about" title="About &amp; us">About</a>',
      '<a href="//evil.example/x">x</a><a href="/\\evil.example/x">y</a><a href="/en//evil.example">z</a>',
      '1 < 2 && 3 > 2 &lt;b&gt;',
      '<p>Open <em>em</p></strong>',
      '<ul><li>a<li>b</ul><p>x<p>y',
      '<p><ul><li>list in a paragraph</li></ul></p><blockquote><p>quote</blockquote>',
      '<a href="/a">one <a href="/b">two</a></a>',
      '<table><tr><td>cell</td></tr></table><select><option>o</option></select>',
      '<p style="color:red" class="MsoNormal"><span lang="hy" style="font-size:12pt">Word</span></p>',
      '</div></body><footer>escaped</footer>',
      '<svg><foreignObject><p onclick=x>t</p></foreignObject></svg><math><mi>x</mi></math>',
      '<a href="https://x.example" target="_self" rel="opener">t</a>',
    ]

    it.each(corpus)(
      '%j: allowed elements, link attributes and safe links only, and idempotent',
      (input) => {
        expectSafe(sanitizeHtml(input))
      }
    )

    it.each(KEPT)('%j keeps the text a visitor reads', (input) => {
      expect(parsedText(sanitizeHtml(input))).toBe(parsedText(input))
    })

    it('the language rewrite of its links keeps every link safe and on the site', () => {
      for (const input of corpus) {
        for (const lng of ['hy', 'en', 'ru'] as const)
          expect(
            oracleProblems(localizeHtml(sanitizeHtml(input), lng)),
            `${lng}: ${input}`
          ).toEqual([])
      }
    })

    // Every element the sanitizer keeps, and ones it must rename or drop.
    const name = fc.constantFrom(
      ...ALLOWED_ELEMENTS,
      'div',
      'h2',
      'section',
      'script',
      'SCRIPT',
      'style',
      'svg',
      'math',
      'iframe',
      'img',
      'template',
      'noscript',
      'textarea',
      'title',
      'xmp',
      'plaintext',
      'table',
      'td',
      'form',
      'button',
      'select',
      'body',
      'html',
      'head',
      'foreignObject',
      'annotation-xml',
      'object',
      'base',
      'meta',
      'link',
      'x-custom'
    )
    const attributeName = fc.constantFrom(
      'href',
      'HREF',
      'title',
      'target',
      'rel',
      'style',
      'class',
      'onclick',
      'onerror',
      'src',
      'srcset',
      'formaction',
      'xlink:href',
      'id',
      'data-x'
    )
    const attributeValue = fc.oneof(
      fc.constantFrom(
        'javascript:alert(1)',
        'java&#x09;script:alert(1)',
        'javascript&colon;x',
        ' \u0001javascript:x',
        'data:text/html,x',
        'https://example.am/',
        '//evil.example',
        '/\\evil.example',
        '/en//evil.example',
        '/about?a=1&b=2',
        '#top',
        '?q=1',
        'mailto:a@b.am',
        'tel:+374',
        '_blank',
        'opener',
        '"><script>alert(1)</script>',
        "'",
        '&quot;',
        'x>y',
        '</a>'
      ),
      fc.string({ maxLength: 12 })
    )
    const quote = fc.constantFrom('"', "'", '')
    const attribute = fc
      .tuple(attributeName, attributeValue, quote)
      .map(([n, v, q]) => ` ${n}=${q}${q ? v.replaceAll(q, '') : v.replace(/[\s>]/g, '')}${q}`)
    const text = fc.oneof(
      fc.constantFrom(
        'text',
        'Երևան',
        '&amp;',
        '&lt;',
        '&#x3c;script&#x3e;',
        '<',
        '>',
        '&',
        '<!--',
        '-->',
        '<!',
        '</',
        '<?x>',
        ']]>'
      ),
      fc.string({ maxLength: 8 })
    )
    const { markup } = fc.letrec<{ markup: string; element: string }>((tie) => ({
      markup: fc
        .array(fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, tie('element')), {
          maxLength: 5,
        })
        .map((parts) => parts.join('')),
      element: fc
        .tuple(
          name,
          fc.array(attribute, { maxLength: 3 }),
          tie('markup'),
          fc.constantFrom('close', 'close', 'open', 'self-closing')
        )
        .map(([tag, attributes, inner, end]) =>
          end === 'self-closing'
            ? `<${tag}${attributes.join('')}/>`
            : `<${tag}${attributes.join('')}>${inner}${end === 'close' ? `</${tag}>` : ''}`
        ),
    }))

    it('holds for generated markup: elements nested at random with hostile attributes and text', () => {
      fc.assert(
        fc.property(markup, (input) => {
          expectSafe(sanitizeHtml(input))
        }),
        { numRuns: 3000 }
      )
    })

    it('holds for any string', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
          expectSafe(sanitizeHtml(input))
        }),
        { numRuns: 1000 }
      )
    })
  }
)

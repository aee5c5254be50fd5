import puppeteer from 'puppeteer-core'
const base = process.argv[2]
const out = process.argv[3]
const paths = process.argv.slice(4)
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] })
for (const path of paths) {
  for (const width of [375, 1280]) {
    const page = await browser.newPage()
    await page.setViewport({ width, height: width === 375 ? 812 : 900, deviceScaleFactor: 1 })
    await page.goto(base + path, { waitUntil: 'networkidle0', timeout: 60000 })
    await page.evaluate(async () => { for (let y = 0; y < document.body.scrollHeight; y += 400) { window.scrollTo(0, y); await new Promise(r => setTimeout(r, 150)) } window.scrollTo(0, 0) })
    await new Promise(r => setTimeout(r, 1500))
    const name = `${out}/${path.replace(/\//g, '_') || '_'}-${width}.png`
    await page.screenshot({ path: name, fullPage: true })
    console.log(name)
    await page.close()
  }
}
await browser.close()

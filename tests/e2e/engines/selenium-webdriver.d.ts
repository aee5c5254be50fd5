/**
 * The part of selenium-webdriver (which ships no types) that ./webkit-visitor.ts and
 * ./engine-fixtures.ts use.
 */
declare module 'selenium-webdriver' {
  export class By {
    static css(selector: string): By
  }
  export const Key: { ESCAPE: string; ENTER: string }
  export interface WebElement {
    click(): Promise<void>
    sendKeys(...keys: string[]): Promise<void>
    takeScreenshot(): Promise<string>
  }
  export interface Rect {
    x: number
    y: number
    width: number
    height: number
  }
  export interface WebDriver {
    get(url: string): Promise<void>
    getCurrentUrl(): Promise<string>
    getCapabilities(): Promise<{ get(name: string): unknown }>
    findElement(locator: By): Promise<WebElement>
    executeScript<T = unknown>(script: string, ...args: unknown[]): Promise<T>
    executeAsyncScript<T = unknown>(script: string, ...args: unknown[]): Promise<T>
    actions(): { sendKeys(...keys: string[]): { perform(): Promise<void> } }
    manage(): {
      setTimeouts(timeouts: { script?: number; pageLoad?: number; implicit?: number }): Promise<void>
      window(): { setRect(rect: Partial<Rect>): Promise<void>; getRect(): Promise<Rect> }
    }
    quit(): Promise<void>
  }
  export class Builder {
    usingServer(url: string): Builder
    withCapabilities(capabilities: Record<string, unknown>): Builder
    build(): Promise<WebDriver> & WebDriver
  }
}

/**
 * @module locate-json-error
 * Finds where a JSON text stops being JSON, as a 1-based line and column. Only runs after
 * `JSON.parse` has already failed, so it favours clarity over speed. Node 20's parser messages
 * carry no position, hence this small scanner of our own.
 */

export interface JsonErrorLocation {
  offset: number
  line: number
  column: number
}

export function locateJsonError(text: string): JsonErrorLocation {
  const scanner = new Scanner(text)
  const offset = scanner.run()
  return toLocation(text, offset)
}

function toLocation(text: string, offset: number): JsonErrorLocation {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { offset, line, column: offset - lineStart + 1 }
}

class Fail {
  constructor(readonly at: number) {}
}

/** Recursive descent over the JSON grammar; the first position that cannot continue is the error. */
class Scanner {
  private i = 0
  constructor(private readonly s: string) {}

  run(): number {
    try {
      this.ws()
      this.value(0)
      this.ws()
      return this.i < this.s.length ? this.i : this.s.length
    } catch (e) {
      if (e instanceof Fail) return e.at
      return this.i
    }
  }

  private ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i]!)) this.i++
  }

  private fail(): never {
    throw new Fail(this.i)
  }

  private value(depth: number): void {
    if (depth > 512) this.fail()
    const c = this.s[this.i]
    if (c === '{') return this.object(depth)
    if (c === '[') return this.array(depth)
    if (c === '"') return this.string()
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number()
    for (const word of ['true', 'false', 'null']) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length
        return
      }
    }
    this.fail()
  }

  private object(depth: number): void {
    this.i++
    this.ws()
    if (this.s[this.i] === '}') {
      this.i++
      return
    }
    for (;;) {
      this.ws()
      if (this.s[this.i] !== '"') this.fail()
      this.string()
      this.ws()
      if (this.s[this.i] !== ':') this.fail()
      this.i++
      this.ws()
      this.value(depth + 1)
      this.ws()
      if (this.s[this.i] === ',') {
        this.i++
        continue
      }
      if (this.s[this.i] === '}') {
        this.i++
        return
      }
      this.fail()
    }
  }

  private array(depth: number): void {
    this.i++
    this.ws()
    if (this.s[this.i] === ']') {
      this.i++
      return
    }
    for (;;) {
      this.ws()
      this.value(depth + 1)
      this.ws()
      if (this.s[this.i] === ',') {
        this.i++
        continue
      }
      if (this.s[this.i] === ']') {
        this.i++
        return
      }
      this.fail()
    }
  }

  private string(): void {
    this.i++
    while (this.i < this.s.length) {
      const code = this.s.charCodeAt(this.i)
      if (code === 34) {
        this.i++
        return
      }
      if (code < 0x20) this.fail()
      if (code === 92) {
        const next = this.s[this.i + 1]
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) {
            this.i += 2
            this.fail()
          }
          this.i += 6
          continue
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) {
          this.i++
          this.fail()
        }
        this.i += 2
        continue
      }
      this.i++
    }
    this.fail()
  }

  private number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400))
    if (!match || match[0] === '-') this.fail()
    this.i += match[0].length
  }
}

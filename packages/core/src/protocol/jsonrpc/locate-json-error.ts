/**
 * @module locate-json-error
 * Finds where a JSON text stops being JSON, as a 1-based line and column. Only runs after
 * `JSON.parse` has already failed, so it favours clarity over speed. Node 20's parser messages
 * carry no position, hence this small scanner of our own. It keeps its own stack of open
 * containers instead of recursing, so no nesting depth can overflow it.
 */

export interface JsonErrorLocation {
  offset: number
  line: number
  column: number
}

export function locateJsonError(text: string): JsonErrorLocation {
  return toLocation(text, firstErrorOffset(text))
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

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const WORDS = ['true', 'false', 'null']

/** Expecting: a value; after a value inside an object or array; an object key. */
type Expect = 'value' | 'after' | 'key'

function firstErrorOffset(s: string): number {
  const stack: Array<'{' | '['> = []
  let i = skipWs(s, 0)
  let expect: Expect = 'value'
  while (i < s.length) {
    const c = s[i]!
    if (expect === 'value') {
      if (c === '{' || c === '[') {
        stack.push(c)
        i = skipWs(s, i + 1)
        const closer = c === '{' ? '}' : ']'
        if (s[i] === closer) {
          stack.pop()
          i = skipWs(s, i + 1)
          expect = 'after'
        } else {
          expect = c === '{' ? 'key' : 'value'
        }
        continue
      }
      const end = scalarEnd(s, i)
      if (end < 0) return -end - 1
      i = end
      expect = 'after'
    } else if (expect === 'key') {
      if (c !== '"') return i
      const end = stringEnd(s, i)
      if (end < 0) return -end - 1
      i = skipWs(s, end)
      if (s[i] !== ':') return i
      i++
      expect = 'value'
    } else {
      if (stack.length === 0) return i
      const top = stack[stack.length - 1]
      if (c === ',') {
        i++
        expect = top === '{' ? 'key' : 'value'
      } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        stack.pop()
        i++
      } else {
        return i
      }
    }
    i = skipWs(s, i)
  }
  return s.length
}

function skipWs(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++
  return i
}

/** End of the scalar starting at i, or -(errorOffset + 1). */
function scalarEnd(s: string, i: number): number {
  const c = s[i]!
  if (c === '"') return stringEnd(s, i)
  if (c === '-' || (c >= '0' && c <= '9')) {
    NUMBER.lastIndex = i
    const m = NUMBER.exec(s)
    return m ? i + m[0].length : -i - 1
  }
  for (const word of WORDS) if (s.startsWith(word, i)) return i + word.length
  return -i - 1
}

function stringEnd(s: string, i: number): number {
  let j = i + 1
  while (j < s.length) {
    const code = s.charCodeAt(j)
    if (code === 34) return j + 1
    if (code < 0x20) return -j - 1
    if (code === 92) {
      const next = s[j + 1]
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(s.slice(j + 2, j + 6))) return -(j + 2) - 1
        j += 6
        continue
      }
      if (next === undefined || !'"\\/bfnrt'.includes(next)) return -(j + 1) - 1
      j += 2
      continue
    }
    j++
  }
  return -s.length - 1
}

/**
 * @module argument-shape
 * A call's arguments held to their `ArgumentLimits` before the input schema reads them: one walk
 * that stops at the first limit passed, so its time is linear in what it read, never in what was
 * sent beyond a limit (an array is refused by its length before any of its items is visited).
 */
import type { ResolvedLimits } from './call-limits.ts'

type Limits = ResolvedLimits['arguments']

/** Why `value` (parsed JSON) is past `limits`, naming the limit; undefined when it is within them. */
export function argumentShapeFault(value: unknown, limits: Limits): string | undefined {
  const walk = { elements: 0, fault: undefined as string | undefined }
  visit(value, 1, limits, walk)
  return walk.fault
}

function visit(
  value: unknown,
  depth: number,
  limits: Limits,
  walk: { elements: number; fault?: string },
): void {
  if (typeof value === 'string') {
    if (value.length > limits.maxStringLength) walk.fault = longString(limits)
    return
  }
  if (typeof value !== 'object' || value === null) return
  if (depth > limits.maxDepth) {
    walk.fault = `they nest deeper than ${limits.maxDepth} levels (limits.arguments.maxDepth)`
    return
  }
  if (Array.isArray(value)) {
    if (!count(value.length, limits, walk)) return
    for (const item of value) {
      visit(item, depth + 1, limits, walk)
      if (walk.fault !== undefined) return
    }
    return
  }
  for (const key in value) {
    if (!count(1, limits, walk)) return
    if (key.length > limits.maxStringLength) {
      walk.fault = longString(limits)
      return
    }
    visit((value as Record<string, unknown>)[key], depth + 1, limits, walk)
    if (walk.fault !== undefined) return
  }
}

function count(more: number, limits: Limits, walk: { elements: number; fault?: string }): boolean {
  walk.elements += more
  if (walk.elements <= limits.maxElements) return true
  walk.fault = `they hold more than ${limits.maxElements} elements (limits.arguments.maxElements)`
  return false
}

function longString(limits: Limits): string {
  return `they hold a string longer than ${limits.maxStringLength} characters (limits.arguments.maxStringLength)`
}

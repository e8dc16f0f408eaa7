/**
 * @module options-checked.test
 * Every options object of the public API refuses what it does not know, at once and by name: an
 * unknown option would otherwise be ignored, and a misspelled one (`maxBodySize` for
 * `maxBodyBytes`) leaves the setting it meant at its default without a word. The compiler finds
 * every exported function that takes options (`options-scan.ts`); each must have a minimal call
 * in `option-factories.ts`, which this test runs with an unknown option and with a misspelled
 * one, expecting a TypeError that names it and, for the misspelling, the name it meant.
 */
import { rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { FACTORIES, type FactoryCall, NESTED, NOT_OPTIONS, probeProjects } from './option-factories.ts'
import { type OptionTaker, optionTakers } from './options-scan.ts'

const takers = optionTakers()
const UNKNOWN = 'notAnOptionOfTessera'

interface Outcome {
  error: unknown
  /** Whether the error was thrown by the call itself rather than by a promise it returned. */
  thrown: boolean
}

/** Runs a call; whatever it built is closed again, so a factory that accepted the option leaks nothing. */
async function run(factory: FactoryCall, extra: Record<string, unknown>): Promise<Outcome> {
  let result: unknown
  try {
    result = factory.call(extra)
  } catch (error) {
    return { error, thrown: true }
  }
  try {
    result = await result
  } catch (error) {
    return { error, thrown: false }
  }
  await dispose(result)
  return { error: undefined, thrown: false }
}

async function dispose(value: unknown): Promise<void> {
  if (typeof value !== 'object' || value === null) return
  const closable = (v: unknown): v is { close(): unknown } =>
    typeof (v as { close?: unknown } | null)?.close === 'function'
  const all = closable(value) ? [value] : Object.values(value).filter(closable)
  for (const item of all) await Promise.resolve(item.close()).catch(() => {})
}

function expectRefusal(outcome: Outcome, factory: FactoryCall, message: string): void {
  expect(outcome.error, 'accepted silently').toBeInstanceOf(TypeError)
  expect((outcome.error as Error).message).toContain(message)
  if (!factory.async) expect(outcome.thrown, 'refused by a rejected promise, not at once').toBe(true)
}

/** A misspelling of the options type's longest name: its last letter dropped. */
function misspelling(taker: OptionTaker): [string, string] {
  const longest = [...taker.properties].sort((a, b) => b.length - a.length || a.localeCompare(b))[0]!
  return [longest.slice(0, -1), longest]
}

afterAll(() => {
  const folder = probeProjects()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

describe('every options object refuses an unknown option', () => {
  it('findsTheFunctionsThatTakeOptions', () => {
    const names = takers.map((t) => t.name)
    for (const name of ['createServer', 'listen', 'oauthResourceServer', 'sqliteStores', 'createProject'])
      expect(names).toContain(name)
    expect(takers.length).toBeGreaterThan(40)
  })

  it('hasAMinimalCallOfEveryFunctionThatTakesOptions', () => {
    const missing = takers
      .filter((t) => FACTORIES[t.name] === undefined && NOT_OPTIONS[t.name] === undefined)
      .map((t) => `${t.specifier} ${t.name}(${t.parameter}: ${t.type})`)
    expect(missing).toEqual([])
  })

  it('keepsNoRowOfAFunctionThatIsGone', () => {
    const names = new Set(takers.map((t) => t.name))
    expect([...Object.keys(FACTORIES), ...Object.keys(NOT_OPTIONS)].filter((n) => !names.has(n))).toEqual([])
  })

  const valid = Object.keys(FACTORIES).filter((name) => FACTORIES[name]!.refusedAnyway === undefined)
  it.each(valid)('%sAcceptsItsMinimalCall', async (name) => {
    expect((await run(FACTORIES[name]!, {})).error).toBeUndefined()
  })

  const checked = takers.filter((t) => FACTORIES[t.name] !== undefined)
  it.each(checked.map((t) => [t.name, t]))('%sRefusesAnUnknownOptionAndNamesIt', async (name, taker) => {
    const factory = FACTORIES[name as string]!
    expectRefusal(await run(factory, { [UNKNOWN]: 1 }), factory, `${name}: unknown option '${UNKNOWN}'`)
    const [wrong, meant] = misspelling(taker as OptionTaker)
    expectRefusal(
      await run(factory, { [wrong]: 1 }),
      factory,
      `${name}: unknown option '${wrong}' (did you mean '${meant}'?).`,
    )
  })

  it.each(Object.keys(NESTED))('%sRefusesAnUnknownOptionAndNamesIt', async (label) => {
    const nested = NESTED[label]!
    const at = nested.path === '' ? '' : `${nested.path}.`
    expectRefusal(
      await run(nested, { [UNKNOWN]: 1 }),
      nested,
      `${nested.where}: unknown option '${at}${UNKNOWN}'`,
    )
    const [wrong, meant] = nested.misspelled
    expectRefusal(
      await run(nested, { [wrong]: 1 }),
      nested,
      `${nested.where}: unknown option '${at}${wrong}' (did you mean '${at}${meant}'?).`,
    )
  })
})

/**
 * @module call-terminal.test
 * The terminal prompts of `tessera call`, in a real terminal (tmux): a form asked field by field
 * (a choice, a yes/no, a number checked as it is typed), a declined question, and progress drawn
 * as a bar while the result still goes to stdout, leaving no frame of it behind.
 */
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasTmux, TmuxTerminal } from '../../../../test/helpers/tmux-terminal.ts'
import { BIN } from '../run-cli.fixture.ts'
import { cliServer } from './cli-server.fixture.ts'

if (!hasTmux)
  process.stderr.write('call-terminal.test: skipped, tmux is not installed (apt-get install tmux)\n')

describe.skipIf(!hasTmux)('tessera call at a terminal', () => {
  let running: RunningServer
  beforeAll(async () => {
    running = await listen(cliServer(), { port: 0 })
  })
  afterAll(() => running.close())

  const open = (tool: string) =>
    new TmuxTerminal(`NO_COLOR=1 node --import tsx ${BIN} call ${running.url} ${tool}`)

  it('asksAFormFieldByFieldAndChecksANumberAsItIsTyped', async () => {
    const terminal = open('order')
    try {
      await terminal.waitFor('Answer?')
      terminal.keys('Enter')
      await terminal.waitFor('○ large')
      terminal.keys('Down', 'Enter')
      await terminal.waitFor('gift')
      terminal.keys('Left', 'Enter')
      await terminal.waitFor('copies')
      terminal.keys('-l', 'two')
      terminal.keys('Enter')
      await terminal.waitFor('A number, please.')
      terminal.keys('BSpace', 'BSpace', 'BSpace')
      terminal.keys('-l', '3')
      terminal.keys('Enter')
      const done = await terminal.waitFor('EXIT=')
      expect(done).toContain('3 large gift-wrapped')
      expect(done).toContain('EXIT=0')
    } finally {
      terminal.close()
    }
  }, 30_000)

  it('sendsADeclineWithoutAskingTheFields', async () => {
    const terminal = open('order')
    try {
      await terminal.waitFor('Answer?')
      terminal.keys('Down', 'Enter')
      const done = await terminal.waitFor('EXIT=')
      expect(done).toContain('no order (decline)')
      expect(done).not.toContain('copies')
    } finally {
      terminal.close()
    }
  }, 30_000)

  it('drawsProgressAsABar', async () => {
    const terminal = open('progress')
    try {
      const done = await terminal.waitFor('EXIT=')
      expect(done).toContain('all steps done')
      expect(done).not.toContain('progress 1/3')
      expect(done).toMatch(/done|step 3/)
    } finally {
      terminal.close()
    }
  }, 30_000)

  it('leavesNothingOfASpinnerAboveTheResult', async () => {
    // A line above, as a shell prompt would be: a terminal cleared from its top row keeps what
    // was there in its history, which would show a frame the person never sees.
    const terminal = new TmuxTerminal(
      `echo '$ tessera call'; NO_COLOR=1 node --import tsx ${BIN} call ${running.url} warm_up`,
    )
    try {
      const done = await terminal.waitFor('EXIT=')
      const lines = done.split('\n').filter((line) => line.trim() !== '')
      expect(lines).toEqual(['$ tessera call', 'warm', 'EXIT=0'])
    } finally {
      terminal.close()
    }
  }, 30_000)
})

/**
 * @module tmux-terminal
 * A real terminal for tests of interactive commands: a detached tmux session on a server of its
 * own (so it inherits this process's environment), read by capturing the pane and driven by
 * sending keys, as a person at the keyboard would. A person's terminal has no `CI` variable:
 * the command runs without it, since terminal libraries (clack) draw for a log, not a screen,
 * when it is set, and CI sets it for everything else.
 */
import { execFileSync, spawnSync } from 'node:child_process'

export const hasTmux = spawnSync('tmux', ['-V']).status === 0

export class TmuxTerminal {
  private readonly socket = `tessera-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`

  /** Runs `command` in a 120×40 terminal; the pane stays after it exits, showing `EXIT=<code>`. */
  constructor(command: string) {
    this.tmux(
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      '120',
      '-y',
      '40',
      `unset CI; ${command}; echo EXIT=$?; sleep 600`,
    )
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'main')
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys)
  }

  /** Resolves with the screen once it contains `text`; rejects with the screen after `ms`. */
  async waitFor(text: string | RegExp, ms = 20_000): Promise<string> {
    const deadline = Date.now() + ms
    for (;;) {
      const screen = this.screen()
      if (typeof text === 'string' ? screen.includes(text) : text.test(screen)) return screen
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(text)}:\n${screen}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  close(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server'])
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' })
  }
}

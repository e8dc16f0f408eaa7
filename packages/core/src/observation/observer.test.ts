import { describe, expect, it } from 'vitest'
import { logSubscriber } from './log-subscriber.ts'
import type { Logger } from './logger.ts'
import {
  Observer,
  type Phase,
  type RequestWatch,
  type Step,
  type StepEvent,
  type Subscriber,
} from './observer.ts'

const received = { method: 'tools/call', requestId: 1, params: {}, headers: undefined }

function recording(wanted: readonly string[], log: string[], name = 'sub'): Subscriber {
  return {
    steps: new Set(wanted as Step[]),
    wants: (step) => wanted.includes(step),
    on: (event) => log.push(`${name}:${event.step}`),
  }
}

function watching(log: string[], name: string): Subscriber {
  const watch: RequestWatch = {
    run: async (work) => {
      log.push(`${name}:run`)
      return work()
    },
    failed: (code) => log.push(`${name}:failed ${code}`),
    answered: (type) => log.push(`${name}:answered ${type}`),
    end: () => log.push(`${name}:end`),
  }
  return {
    steps: new Set(),
    wants: () => false,
    on: () => {},
    request: () => watch,
    phase: <T>(phase: Phase, work: () => T): T => {
      log.push(`${name}:${typeof phase === 'string' ? phase : phase.clientRequest}`)
      return work()
    },
  }
}

describe('observer', () => {
  it('announcesAStepOnlyToTheSubscribersThatWantIt', () => {
    const log: string[] = []
    const observer = new Observer([recording(['task'], log, 'a'), recording(['task', 'session'], log, 'b')])
    expect(observer.wants('session')).toBe(true)
    expect(observer.wants('asked')).toBe(false)
    observer.announce({ step: 'task', taskId: 't', tool: 'x', status: 'working', created: true })
    observer.announce({ step: 'session', sessionId: 's', open: true })
    expect(log).toEqual(['a:task', 'b:task', 'b:session'])
  })

  it('keepsServingWhenASubscriberThrows', () => {
    const log: string[] = []
    const throwing: Subscriber = {
      steps: new Set(['guard']),
      wants: () => true,
      on: () => {
        throw new Error('a faulty subscriber')
      },
    }
    const observer = new Observer([throwing, recording(['guard'], log)])
    expect(() => observer.announce({ step: 'guard', type: 'duplicate' })).not.toThrow()
    expect(log).toEqual(['sub:guard'])
  })

  it('watchesNothingAndTimesNothingWithoutSubscribersThatDo', async () => {
    const observer = new Observer([recording(['task'], [])])
    const watch = observer.request(received)
    expect(await watch.run(async () => 'served')).toBe('served')
    expect(() => {
      watch.failed(-32603, 'x')
      watch.end()
    }).not.toThrow()
    expect(observer.phase('handler', () => 7)).toBe(7)
    expect(observer.link()).toBeUndefined()
    expect(observer.exchange('POST', '/mcp', (exchange) => exchange)).toBeUndefined()
  })

  it('givesEveryWatchingSubscriberTheWholeRequestAndEveryPhase', async () => {
    const log: string[] = []
    const observer = new Observer([watching(log, 'a'), watching(log, 'b')])
    const watch = observer.request(received)
    await watch.run(async () => {
      log.push('served')
      observer.phase({ clientRequest: 'elicitation/create' }, () => log.push('asked'))
    })
    watch.answered('input_required', false)
    watch.end()
    expect(log).toEqual([
      'a:run',
      'b:run',
      'served',
      'a:elicitation/create',
      'b:elicitation/create',
      'asked',
      'a:answered input_required',
      'b:answered input_required',
      'a:end',
      'b:end',
    ])
  })
})

describe('log subscriber', () => {
  it('logsTheStepsAnOperatorReadsWithTheirFieldsAndNothingElse', () => {
    const lines: Array<[string, object]> = []
    const logger: Logger = {
      debug: (obj) => lines.push(['debug', obj]),
      info: (obj) => lines.push(['info', obj]),
      warn: (obj) => lines.push(['warn', obj]),
      error: (obj) => lines.push(['error', obj]),
    }
    const observer = new Observer([logSubscriber(logger)])
    expect(observer.wants('round-answered')).toBe(false)
    expect(observer.wants('store-call')).toBe(false)
    const error = new Error('boom')
    const events: StepEvent[] = [
      { step: 'state-refused', reason: 'mac', method: 'tools/call' },
      { step: 'guard', type: 'duplicate', detail: 'done' },
      { step: 'task', taskId: 't1', tool: 'deploy', status: 'working', created: true },
      { step: 'task', taskId: 't1', tool: 'deploy', status: 'completed', created: false },
      { step: 'listen-stream', subscriptionId: 3, stream: {}, open: true },
      { step: 'listen-stream', subscriptionId: 3, stream: {}, open: false },
      { step: 'failed', method: 'tools/call', error },
    ]
    for (const event of events) observer.announce(event)
    expect(lines).toEqual([
      ['warn', { event: 'request_state_refused', reason: 'mac', method: 'tools/call' }],
      ['info', { event: 'single_use_duplicate', detail: 'done' }],
      ['info', { event: 'task_created', taskId: 't1', tool: 'deploy' }],
      ['debug', { event: 'listen_opened', subscriptionId: 3 }],
      ['error', { event: 'internal_error', method: 'tools/call', err: error }],
    ])
  })
})

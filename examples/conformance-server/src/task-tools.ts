/**
 * @module task-tools
 * The tools of the suite's tasks scenarios: one that never runs as a task, long work that may,
 * tool errors and protocol errors inside a task, questions asked inside a task (one, or two at
 * once), and a call that gathers its input in ordinary rounds before it becomes a task.
 */
import { elicitForm, type McpServer, TesseraError, ToolError } from '@tessera/core'
import { z } from 'zod'

/** Resolves after `ms`, or rejects as soon as `signal` aborts (a cancelled task stops at once). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(done, ms)
    function done() {
      signal.removeEventListener('abort', stop)
      resolve()
    }
    function stop() {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', stop, { once: true })
  })
}

const askConfirm = (message: string) =>
  elicitForm({
    message,
    requestedSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
    },
  })

const askName = elicitForm({
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
})

export function registerTaskTools(app: McpServer): void {
  app.tool(
    'greet',
    { description: 'Greets synchronously; never a task.', input: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  )
  app.tool(
    'slow_compute',
    {
      description: 'Sleeps `seconds` seconds, reporting progress; a task when it takes any time.',
      input: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
      task: { support: 'optional', when: ({ seconds }) => seconds > 0 },
    },
    async ({ seconds, label }, ctx) => {
      for (let done = 0; done < seconds; done++) {
        ctx.task?.progress(done, seconds, `computing ${label ?? ''} (${done}/${seconds} s)`.trim())
        await sleep(1000, ctx.signal)
      }
      return `Computed ${label ?? 'result'} in ${seconds} s.`
    },
  )
  app.tool(
    'failing_job',
    { description: 'Fails with a tool error after a second.', task: 'required' },
    async (_args, ctx) => {
      await sleep(1000, ctx.signal)
      throw new ToolError('The job failed: the input could not be processed.')
    },
  )
  app.tool(
    'protocol_error_job',
    { description: 'Ends with a protocol error.', task: 'optional' },
    async (_args, ctx) => {
      await sleep(200, ctx.signal)
      throw new TesseraError('TESSERA_INTERNAL', 'Internal error: the job crashed.')
    },
  )
  app.tool(
    'confirm_delete',
    {
      description: 'Asks inside its task before it deletes a file.',
      input: z.object({ filename: z.string() }),
      task: 'optional',
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.ask('confirm', askConfirm(`Delete ${filename}?`))
      if (answer.action !== 'accept' || answer.content.confirm !== true) return `Kept ${filename}.`
      return `Deleted ${filename}.`
    },
  )
  app.tool(
    'multi_input',
    { description: 'Asks two questions at once inside its task.', task: 'optional' },
    async (_args, ctx) => {
      const answers = await ctx.askAll({
        first: askConfirm('First input?'),
        second: askConfirm('Second input?'),
      })
      return `Got ${JSON.stringify(answers.first)} and ${JSON.stringify(answers.second)}.`
    },
  )
  app.tool(
    'test_tool_with_task',
    {
      description: 'Asks for a name in ordinary rounds, then goes on as a task.',
      task: { support: 'required', start: 'handler' },
    },
    async (_args, ctx) => {
      const answer = await ctx.ask('user_name', askName)
      if (answer.action !== 'accept') return 'Nothing was done: no name was given.'
      await ctx.startTask()
      await sleep(300, ctx.signal)
      return `Hello, ${String(answer.content.name)}! (from the task)`
    },
  )
}

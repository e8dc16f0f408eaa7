/**
 * @module method-table
 * Method name → implementation, with the server capability that gates it: a method behind a
 * capability the server does not advertise is -32601, exactly like one that does not exist.
 */
import type { Catalogue } from '../catalogue.ts'
import { completeArgument } from '../methods/completion.ts'
import { discover } from '../methods/discover.ts'
import type { MethodImpl } from '../methods/method-call.ts'
import { getPrompt, listPrompts } from '../methods/prompts.ts'
import { listResources, listResourceTemplates, readResource } from '../methods/resources.ts'
import { cancelTask, getTask, updateTask } from '../methods/tasks.ts'
import { callTool, listTools } from '../methods/tools.ts'

export interface MethodSpec {
  run: MethodImpl
  enabled?: (catalogue: Catalogue) => boolean
}

const hasTools = (catalogue: Catalogue) => catalogue.tools.size > 0
const hasResources = (catalogue: Catalogue) => catalogue.resources.size > 0
const hasPrompts = (catalogue: Catalogue) => catalogue.prompts.size > 0
const hasTasks = (catalogue: Catalogue) => catalogue.tools.hasTasks()
const unreachable: MethodImpl = () => {
  throw new Error('subscriptions/listen is served as a stream')
}

export const methodTable: Readonly<Record<string, MethodSpec>> = Object.assign(Object.create(null), {
  'server/discover': { run: discover },
  'tools/list': { run: listTools, enabled: hasTools },
  'tools/call': { run: callTool, enabled: hasTools },
  'resources/list': { run: listResources, enabled: hasResources },
  'resources/templates/list': { run: listResourceTemplates, enabled: hasResources },
  'resources/read': { run: readResource, enabled: hasResources },
  'prompts/list': { run: listPrompts, enabled: hasPrompts },
  'prompts/get': { run: getPrompt, enabled: hasPrompts },
  'completion/complete': {
    run: completeArgument,
    enabled: (catalogue: Catalogue) => catalogue.hasCompletions(),
  },
  'subscriptions/listen': { run: unreachable },
  'tasks/get': { run: getTask, enabled: hasTasks },
  'tasks/update': { run: updateTask, enabled: hasTasks },
  'tasks/cancel': { run: cancelTask, enabled: hasTasks },
})

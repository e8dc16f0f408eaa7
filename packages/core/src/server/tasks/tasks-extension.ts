/**
 * @module tasks-extension
 * The tasks extension of 2026-07-28, written against the same contract as any other: it owns the
 * `task` option of tools, is advertised while a registered tool runs as a task, and adds
 * `tasks/get`, `tasks/update` and `tasks/cancel`, which need the extension declared and mirror
 * the task id in `Mcp-Name`. Every server has it installed.
 */
import { TASKS_EXTENSION } from '../../protocol/modern/vocabulary.ts'
import type { Extension, ExtensionMethod } from '../extensions/extension.ts'
import { cancelTask, getTask, type TasksHost, updateTask } from '../methods/tasks.ts'
import type { ToolConfig } from '../types.ts'
import { toolTask } from './tool-task.ts'

/** The tasks extension of a server whose parts `host` returns once they are built. */
export function tasksExtension(host: () => TasksHost): Extension {
  const method = (run: typeof getTask): ExtensionMethod => ({
    nameParam: 'taskId',
    needsDeclaration: true,
    run: (call) => run(host(), call),
  })
  return {
    id: TASKS_EXTENSION,
    // A session of 2025-11-25 has no tasks: a tool that runs as one is answered synchronously.
    eras: ['modern'],
    settings: (usage) => (usage.tools > 0 ? {} : undefined),
    methods: {
      'tasks/get': method(getTask),
      'tasks/update': method(updateTask),
      'tasks/cancel': method(cancelTask),
    },
    tools: {
      names: ['task'],
      define: ({ config, label }) => {
        const task = toolTask(config.task as ToolConfig['task'], label)
        return task === undefined ? undefined : { data: task }
      },
    },
  }
}

/**
 * @module option-factories
 * A minimal valid call of every public function that takes options, and of every nested options
 * object and registration config, each taking the options to add (`extra`). Read by
 * `options-checked.test.ts`, which adds an unknown option and a misspelled one and expects each
 * refused by name. Calls never reach the network: stores get an address nothing listens on
 * (port 1 on loopback) and must refuse before connecting; `serveCluster` gets `workers: 0`,
 * refused before anything forks, so a factory that let an unknown option through still forks nothing.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { appsExtension } from '@tessera/apps'
import {
  dpopNonces,
  introspectionVerifier,
  issuerVerifiers,
  jwtVerifier,
  oauthResourceServer,
} from '@tessera/auth'
import { createDevConsole } from '@tessera/cli/console'
import { createServer } from '@tessera/core'
import { clusterNotificationBus, serveCluster } from '@tessera/core/cluster'
import { createFetchHandler, createNodeListener, listen } from '@tessera/core/http'
import {
  assertKnownOptions,
  createBusRelay,
  createSingleUseGuard,
  memoryEventStore,
  memoryRateLimitStore,
  memoryReplayStore,
  memorySessionStore,
  memoryTaskStore,
} from '@tessera/core/ports'
import { originatingRequestBinder } from '@tessera/core/request-state'
import { serveStdio } from '@tessera/core/stdio'
import { createTestClient } from '@tessera/core/testing'
import { skillsExtension } from '@tessera/skills'
import {
  postgresEventStore,
  postgresNotificationBus,
  postgresRateLimitStore,
  postgresReplayStore,
  postgresSessionStore,
  postgresStores,
  postgresTaskStore,
} from '@tessera/store-postgres'
import {
  redisEventStore,
  redisNotificationBus,
  redisRateLimitStore,
  redisReplayStore,
  redisSessionStore,
  redisStores,
  redisTaskStore,
} from '@tessera/store-redis'
import {
  sqliteEventStore,
  sqliteRateLimitStore,
  sqliteReplayStore,
  sqliteSessionStore,
  sqliteStores,
  sqliteTaskStore,
} from '@tessera/store-sqlite'
import { createProject } from 'create-tessera'
// From its source file: the package's entry also exports the Durable Object class, which loads on Workers only.
import { durableObjectStores } from '../../packages/cloudflare/src/durable-object-stores.ts'
import { silentLogger } from '../helpers/silent-logger.ts'

type Extra = Record<string, unknown>

export interface FactoryCall {
  /** The factory with a minimal valid options object, and `extra` added to it. */
  call(extra: Extra): unknown
  /** An `async` function: its refusal is its first rejection. Every other one must throw at once. */
  async?: true
  /** Why even the minimal call is refused (after its options are checked): it would start something for real. */
  refusedAnyway?: string
}

/** A nested options object or a registration config: where it sits and a misspelling of one of its names. */
export interface NestedCall extends FactoryCall {
  /** What the refusal starts with. */
  where: string
  /** The dotted path of the nested object (`tasks`), empty for a registration config. */
  path: string
  /** A misspelled name, and the name the refusal must suggest. */
  misspelled: readonly [string, string]
}

// Deliberately cast: the calls add options no type has.
const any = <T>(value: Extra) => value as T
const app = () => createServer({ name: 'options', version: '1', logger: silentLogger })
const noServer = 'redis://127.0.0.1:1'
const noDatabase = 'postgres://postgres@127.0.0.1:1/test'
const unusedBinding = {
  idFromName: () => {
    throw new Error('the options probe reaches no Durable Object')
  },
  get: () => ({}),
}
const resource = 'https://mcp.example.com/mcp'
const issuer = 'https://issuer.example.com'
const verifier = { verify: async () => Promise.reject(new Error('not used')) }
let projects: string | undefined

/** Every exported function that takes options, by name. */
export const FACTORIES: Readonly<Record<string, FactoryCall>> = {
  // @tessera/core
  createServer: {
    call: (extra) => createServer(any({ name: 'x', version: '1', logger: silentLogger, ...extra })),
  },
  originatingRequestBinder: { call: (extra) => originatingRequestBinder(any(extra)) },
  // @tessera/core/http, /stdio, /testing, /cluster
  createFetchHandler: { call: (extra) => createFetchHandler(app(), any(extra)) },
  createNodeListener: { call: (extra) => createNodeListener(app(), any(extra)) },
  listen: { call: (extra) => listen(app(), any({ host: '127.0.0.1', port: 0, ...extra })), async: true },
  serveStdio: {
    call: (extra) => {
      const input = new PassThrough()
      const served = serveStdio(app(), any({ input, output: new PassThrough(), ...extra }))
      input.end()
      return served
    },
  },
  createTestClient: { call: (extra) => createTestClient(app(), any(extra)) },
  skillsExtension: { call: (extra) => skillsExtension(any({ skills: [], ...extra })) },
  appsExtension: { call: (extra) => appsExtension(any({ views: [], ...extra })) },
  serveCluster: {
    call: (extra) => serveCluster(any({ server: app, workers: 0, ...extra })),
    refusedAnyway: 'a valid call forks workers of this test process',
  },
  clusterNotificationBus: { call: (extra) => clusterNotificationBus(any(extra)) },
  // @tessera/core/ports
  assertKnownOptions: { call: (extra) => assertKnownOptions({}, {}, 'probe', any(extra)) },
  createBusRelay: { call: (extra) => createBusRelay(any(extra)) },
  createSingleUseGuard: {
    call: (extra) => createSingleUseGuard(any({ store: memoryReplayStore(), ...extra })),
  },
  memoryEventStore: { call: (extra) => memoryEventStore(any(extra)) },
  memoryReplayStore: { call: (extra) => memoryReplayStore(any(extra)) },
  memorySessionStore: { call: (extra) => memorySessionStore(any(extra)) },
  memoryTaskStore: { call: (extra) => memoryTaskStore(any(extra)) },
  memoryRateLimitStore: { call: (extra) => memoryRateLimitStore(any(extra)) },
  // @tessera/auth
  dpopNonces: { call: (extra) => dpopNonces(any(extra)) },
  jwtVerifier: {
    call: (extra) =>
      jwtVerifier(any({ issuer, audience: resource, jwks: new URL(`${issuer}/jwks`), ...extra })),
  },
  issuerVerifiers: {
    call: (extra) => issuerVerifiers(any({ issuers: { [issuer]: { verify: async () => ({}) } }, ...extra })),
  },
  introspectionVerifier: {
    call: (extra) =>
      introspectionVerifier(
        any({
          endpoint: `${issuer}/introspect`,
          clientId: 'c',
          clientSecret: 's',
          audience: resource,
          ...extra,
        }),
      ),
  },
  oauthResourceServer: {
    call: (extra) =>
      oauthResourceServer(any({ resource, authorizationServers: [issuer], verifier, ...extra })),
  },
  // @tessera/cli/console, create-tessera
  createDevConsole: { call: (extra) => createDevConsole(any(extra)) },
  createProject: {
    call: (extra) => {
      projects ??= mkdtempSync(join(tmpdir(), 'tessera-options-'))
      return createProject(mkdtempSync(join(projects, 'p-')), any({ name: 'options-probe', ...extra }))
    },
  },
  // @tessera/store-sqlite
  sqliteStores: { call: (extra) => sqliteStores(any({ path: ':memory:', ...extra })) },
  sqliteReplayStore: { call: (extra) => sqliteReplayStore(any({ path: ':memory:', ...extra })) },
  sqliteSessionStore: { call: (extra) => sqliteSessionStore(any({ path: ':memory:', ...extra })) },
  sqliteEventStore: { call: (extra) => sqliteEventStore(any({ path: ':memory:', ...extra })) },
  sqliteTaskStore: { call: (extra) => sqliteTaskStore(any({ path: ':memory:', ...extra })) },
  sqliteRateLimitStore: { call: (extra) => sqliteRateLimitStore(any({ path: ':memory:', ...extra })) },
  // @tessera/store-redis
  redisStores: { call: (extra) => redisStores(any({ url: noServer, ...extra })) },
  redisReplayStore: { call: (extra) => redisReplayStore(any({ url: noServer, ...extra })) },
  redisRateLimitStore: { call: (extra) => redisRateLimitStore(any({ url: noServer, ...extra })) },
  redisSessionStore: { call: (extra) => redisSessionStore(any({ url: noServer, ...extra })) },
  redisEventStore: { call: (extra) => redisEventStore(any({ url: noServer, ...extra })) },
  redisTaskStore: { call: (extra) => redisTaskStore(any({ url: noServer, ...extra })) },
  redisNotificationBus: { call: (extra) => redisNotificationBus(any({ url: noServer, ...extra })) },
  // @tessera/store-postgres
  postgresStores: { call: (extra) => postgresStores(any({ connectionString: noDatabase, ...extra })) },
  postgresReplayStore: {
    call: (extra) => postgresReplayStore(any({ connectionString: noDatabase, ...extra })),
  },
  postgresRateLimitStore: {
    call: (extra) => postgresRateLimitStore(any({ connectionString: noDatabase, ...extra })),
  },
  postgresSessionStore: {
    call: (extra) => postgresSessionStore(any({ connectionString: noDatabase, ...extra })),
  },
  postgresEventStore: {
    call: (extra) => postgresEventStore(any({ connectionString: noDatabase, ...extra })),
  },
  postgresTaskStore: { call: (extra) => postgresTaskStore(any({ connectionString: noDatabase, ...extra })) },
  postgresNotificationBus: {
    call: (extra) => postgresNotificationBus(any({ connectionString: noDatabase, ...extra })),
  },
  // @tessera/cloudflare: a binding that is never called (building the stores reaches nothing).
  durableObjectStores: { call: (extra) => durableObjectStores(unusedBinding, any(extra)) },
}

/**
 * Functions whose object parameter is no options object, and why. Anything else the scan finds
 * must be in FACTORIES.
 */
export const NOT_OPTIONS: Readonly<Record<string, string>> = {
  createMessage: 'the params of sampling/createMessage, sent to the client as given',
  elicitForm: 'the params of elicitation/create, sent to the client as given',
  paramHeaders: 'a tool as tools/list describes it, read by a client',
  applySessionChange: 'a session record and a change, the arguments of a store operation',
  assertClaimArguments: 'the conditions of one claim, checked by the claim itself',
  assertReplacement: 'a task record, the argument of a store operation',
  isLocalEvent: 'a bus event',
  declaresExtension: "a client's capabilities, read as the client sent them",
  requireScopes: 'the caller, as the transport authenticated it',
  viewContentSecurityPolicy: "a view's _meta.ui, read as the server sent it",
  viewPermissionsPolicy: "a view's _meta.ui, read as the server sent it",
  pageResult: 'a page paginate made, and a cache hint the server resolved',
  takeToken: "a bucket's state and shape, the arguments of a store operation",
  assertBucket: "a bucket's shape, the argument of a store operation",
}

const tool = (extra: Extra) =>
  app().tool('probe', any<{ description: string }>({ description: 'd', ...extra }), () => 'ok')
const server = (extra: Extra) => FACTORIES.createServer!.call(extra)

/** Options inside options, and the configs of registration, each checked the same way. */
export const NESTED: Readonly<Record<string, NestedCall>> = {
  'createServer tasks': {
    call: (extra) => server({ tasks: extra }),
    where: 'createServer',
    path: 'tasks',
    misspelled: ['leasMs', 'leaseMs'],
  },
  'createServer handshake': {
    call: (extra) => server({ handshake: extra }),
    where: 'createServer',
    path: 'handshake',
    misspelled: ['requestTimeout', 'requestTimeoutMs'],
  },
  'createServer singleUse': {
    call: (extra) => server({ singleUse: extra }),
    where: 'createServer',
    path: 'singleUse',
    misspelled: ['leaseMS', 'leaseMs'],
  },
  'createServer requestState': {
    call: (extra) => server({ requestState: extra }),
    where: 'createServer',
    path: 'requestState',
    misspelled: ['ttlSecond', 'ttlSeconds'],
  },
  'createServer cache': {
    call: (extra) => server({ cache: extra }),
    where: 'createServer',
    path: 'cache',
    misspelled: ['toolList', 'toolsList'],
  },
  'createServer limits': {
    call: (extra) => server({ limits: extra }),
    where: 'createServer',
    path: 'limits',
    misspelled: ['timeoutMS', 'timeoutMs'],
  },
  'createServer limits.arguments': {
    call: (extra) => server({ limits: { arguments: extra } }),
    where: 'createServer',
    path: 'limits.arguments',
    misspelled: ['maxDepht', 'maxDepth'],
  },
  'createServer rateLimits': {
    call: (extra) => server({ rateLimits: extra }),
    where: 'createServer',
    path: 'rateLimits',
    misspelled: ['caler', 'caller'],
  },
  'createServer rateLimits.server': {
    call: (extra) => server({ rateLimits: { server: { calls: 1, perMs: 1000, ...extra } } }),
    where: 'createServer',
    path: 'rateLimits.server',
    misspelled: ['burts', 'burst'],
  },
  'createServer stores': {
    call: (extra) => server({ stores: extra }),
    where: 'createServer',
    path: 'stores',
    misspelled: ['replays', 'replay'],
  },
  'oauthResourceServer dpop': {
    call: (extra) => FACTORIES.oauthResourceServer!.call({ dpop: { replay: memoryReplayStore(), ...extra } }),
    where: 'oauthResourceServer',
    path: 'dpop',
    misspelled: ['maxAge', 'maxAgeSec'],
  },
  'McpServer.tool config': {
    call: tool,
    where: "Tool 'probe'",
    path: '',
    misspelled: ['singleuse', 'singleUse'],
  },
  'McpServer.tool task': {
    call: (extra) => tool({ task: { support: 'optional', ...extra } }),
    where: "Tool 'probe'",
    path: 'task',
    misspelled: ['strat', 'start'],
  },
  'McpServer.tool trace': {
    call: (extra) => tool({ trace: extra }),
    where: "Tool 'probe'",
    path: 'trace',
    misspelled: ['argument', 'arguments'],
  },
  'McpServer.tool limits': {
    call: (extra) => tool({ limits: extra }),
    where: "Tool 'probe'",
    path: 'limits',
    misspelled: ['resultByte', 'resultBytes'],
  },
  'McpServer.tool rateLimit': {
    call: (extra) => tool({ rateLimit: { calls: 1, perMs: 1000, ...extra } }),
    where: "Tool 'probe'",
    path: 'rateLimit',
    misspelled: ['permS', 'perMs'],
  },
  'McpServer.resource config': {
    call: (extra) => app().resource('probe://r', any({ name: 'r', ...extra }), () => ({ contents: [] })),
    where: "Resource 'probe://r'",
    path: '',
    misspelled: ['mimetype', 'mimeType'],
  },
  'McpServer.resourceTemplate config': {
    call: (extra) =>
      app().resourceTemplate('probe://{id}', any({ name: 't', ...extra }), () => ({ contents: [] })),
    where: "Resource template 'probe://{id}'",
    path: '',
    misspelled: ['descripton', 'description'],
  },
  'McpServer.prompt config': {
    call: (extra) =>
      app().prompt('probe', any<{ description: string }>({ description: 'd', ...extra }), () => ({
        messages: [],
      })),
    where: "Prompt 'probe'",
    path: '',
    misspelled: ['argz', 'args'],
  },
  'TestClient.callTool options': {
    call: (extra) => createTestClient(tool({})).callTool('probe', {}, any(extra)),
    async: true,
    where: 'callTool',
    path: '',
    misspelled: ['answers', 'answer'],
  },
}

/** The folder the createProject probes wrote in, if any. */
export function probeProjects(): string | undefined {
  return projects
}

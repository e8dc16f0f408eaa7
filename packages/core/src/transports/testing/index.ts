/**
 * @module testing
 * `@tessera/core/testing`: call the tools, resources and prompts of a server in the same process,
 * in either era, answering its questions from the test, as the caller `auth` names (its scopes
 * open scoped tools).
 */
export {
  type Answers,
  type AskedInput,
  type CallOptions,
  createTestClient,
  TestCallError,
  type TestClient,
  type TestClientOptions,
} from './test-client.ts'

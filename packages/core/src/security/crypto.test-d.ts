/**
 * @module crypto.test-d
 * Both implementations of `#crypto` offer the whole port, checked by the compiler (`npm run
 * typecheck`), never run: a function one platform lacks fails the typecheck, not a Worker.
 */
import type { PlatformCrypto } from './crypto.ts'
import * as node from './crypto-node.ts'
import * as web from './crypto-web.ts'

export const platforms = [node satisfies PlatformCrypto, web satisfies PlatformCrypto]

/**
 * @module ip-address-node
 * `#ip-address` on Node, Bun and Deno: ipaddr.js, loaded by `require` the first time an address is
 * parsed. Only a server with `trustProxy` parses one, and loading the library costs a start about
 * five milliseconds that every other server would pay for nothing.
 */
import type ipaddr from 'ipaddr.js'
import { ipaddrPackage } from '#on-demand'

let loaded: typeof ipaddr | undefined

/** The ipaddr.js module. */
export function ipAddresses(): typeof ipaddr {
  loaded ??= ipaddrPackage()
  return loaded
}

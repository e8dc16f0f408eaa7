/**
 * @module ip-address-web
 * `#ip-address` on Workers and in browsers: ipaddr.js imported with the rest, since a bundle holds
 * only what it imports and there is no `require` to load it later.
 */
import ipaddr from 'ipaddr.js'

/** The ipaddr.js module. */
export function ipAddresses(): typeof ipaddr {
  return ipaddr
}

/**
 * @module dpop-replay
 * A DPoP proof is single use: a proof captured on the way must not authorise a second request.
 * The record of a used jti has to be shared by every worker and instance of the server, or a
 * replay sent to another one would pass; so the ledger is a port over the server's ReplayStore,
 * never a map in memory.
 */
import { createHash } from 'node:crypto'
import { base64url } from 'jose'

/**
 * Records a key once; true when it was new, false when it had been recorded before and not
 * expired. Throws when the store cannot answer (callers fail closed).
 */
export interface ProofLedger {
  recordOnce(key: string, ttlMs: number): Promise<boolean>
}

/** The part of @tessera/core's ReplayStore the ledger uses. */
export interface ReplayStoreLike {
  claim(key: string, what: string, leaseMs: number, ttlMs: number): Promise<{ kind: string }>
}

/**
 * A key for the jti bound to the proof key, so two clients' jtis can never collide:
 * `dpop:<jkt>:<sha256-b64url of jti>`. The jti is hashed so the key has a fixed length and no
 * client-chosen characters reach the store.
 */
export function proofKey(jkt: string, jti: string): string {
  return `dpop:${jkt}:${base64url.encode(createHash('sha256').update(jti, 'utf8').digest())}`
}

/**
 * A ledger over the server's ReplayStore. Pass as ttl the proof's acceptance window
 * (`proofAcceptanceWindowMs`): once it has passed the proof is refused as stale anyway, so the
 * lease running out with the record cannot admit the proof again. Only a fresh claim counts as
 * new: `in_progress` and `done` both mean some request already used the proof. Store failures
 * propagate unchanged, so the caller refuses the request rather than accepting an unrecorded proof.
 */
export function replayStoreLedger(store: ReplayStoreLike): ProofLedger {
  return {
    async recordOnce(key, ttlMs) {
      if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive number')
      // Whole milliseconds: some stores keep durations as integers.
      const ttl = Math.ceil(ttlMs)
      const claim = await store.claim(key, 'dpop-proof', ttl, ttl)
      return claim.kind === 'claimed'
    },
  }
}

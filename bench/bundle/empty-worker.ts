/**
 * @module empty-worker
 * A Worker that answers every request with a short text and imports nothing: what workerd itself
 * costs per start and per request, which `npm run bench:workerd` takes from every other figure.
 */
export default { fetch: () => new Response('{}', { headers: { 'content-type': 'application/json' } }) }

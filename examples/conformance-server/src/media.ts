/**
 * @module media
 * Tiny binary fixtures: a 1×1 PNG and a short silent WAV, base64-encoded.
 */
export const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

// A DataView and btoa rather than Buffer: the fixture also runs as a Worker without Node compatibility.
function silentWav(samples: number): string {
  const dataBytes = samples * 2
  const bytes = new Uint8Array(44 + dataBytes)
  const view = new DataView(bytes.buffer)
  const ascii = (text: string, at: number) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i)
  }
  ascii('RIFF', 0)
  view.setUint32(4, 36 + dataBytes, true)
  ascii('WAVEfmt ', 8)
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, 1, true)
  view.setUint32(24, 8000, true)
  view.setUint32(28, 16000, true)
  view.setUint16(32, 2, true)
  view.setUint16(34, 16, true)
  ascii('data', 36)
  view.setUint32(40, dataBytes, true)
  return btoa(String.fromCharCode(...bytes))
}

export const WAV_SILENCE = silentWav(80)

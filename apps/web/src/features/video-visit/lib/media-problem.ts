/**
 * Why the camera or the microphone could not be used, from getUserMedia's error, so the device
 * check explains it in words and says what to do: permission refused (allow it in the browser's
 * site settings), no such device, the device busy in another application, or the page not secure.
 */
export type MediaProblem = 'denied' | 'noDevice' | 'inUse' | 'insecure' | 'unknown';

export function mediaProblemOf(error: unknown): MediaProblem {
  const name = typeof error === 'object' && error && 'name' in error ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'noDevice';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'inUse';
    default:
      return 'unknown';
  }
}

/** The browser family whose steps to allow the camera the page shows (the rest get the general steps). */
export type BrowserFamily = 'chrome' | 'firefox' | 'safari' | 'other';

export function browserFamily(userAgent: string): BrowserFamily {
  if (/Firefox\//.test(userAgent)) return 'firefox';
  if (/(Chrome|Chromium|CriOS|Edg)\//.test(userAgent)) return 'chrome';
  if (/Safari\//.test(userAgent)) return 'safari';
  return 'other';
}

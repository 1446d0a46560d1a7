/** Debian's Chromium as every journey launches it (playwright.config.ts); the video visit journeys add fake media devices. */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

/** A camera and a microphone that Chromium makes up (a moving test pattern, a beep). */
export const FAKE_MEDIA_DEVICES = '--use-fake-device-for-media-stream';
/** Answers the camera and microphone permission prompt with "Allow" (with `=deny`: "Block"). */
export const ALLOW_MEDIA_PROMPT = '--use-fake-ui-for-media-stream';

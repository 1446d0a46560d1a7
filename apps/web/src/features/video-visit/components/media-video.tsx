import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';

/**
 * A <video> showing a MediaStream (srcObject is not an attribute React sets). This side's own
 * camera is muted (no echo) and mirrored, as people expect to see themselves.
 */
export function MediaVideo({ stream, muted = false, mirrored = false, label, version = 0, fit = 'cover' }: { stream: MediaStream | null; muted?: boolean; mirrored?: boolean; label: string; version?: number; fit?: 'cover' | 'contain' }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (stream) void video.play().catch(() => undefined);
  }, [stream, version]);
  return (
    <Box
      component="video"
      ref={ref}
      autoPlay
      playsInline
      muted={muted}
      aria-label={label}
      sx={{ display: 'block', width: '100%', height: '100%', objectFit: fit, transform: mirrored ? 'scaleX(-1)' : undefined, bgcolor: 'grey.900' }}
    />
  );
}

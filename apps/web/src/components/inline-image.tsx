import Box from '@mui/material/Box';
import { DRAWN_IMAGE_TYPES, useFileObjectUrl } from '../lib/files';

export interface InlineImageProps {
  /** The file's API address (fetched with the session, never a token in an address). */
  url: string;
  /** What the image is (its file name, when nothing better is known). */
  alt: string;
  /** Told once drawn (a chat's log keeps the newest message in view). */
  onLoad?: () => void;
  maxHeight?: number;
}

/**
 * An image file of the API shown in the page (a photo sent in a chat): drawn from an object URL
 * only when the server's type for the bytes (sniffed when they were stored, sent with nosniff) is
 * one a browser draws. Nothing shows while it loads or if it fails: the file's download stays
 * beside it.
 */
export function InlineImage({ url, alt, onLoad, maxHeight = 200 }: InlineImageProps) {
  const { objectUrl, type } = useFileObjectUrl(url);
  if (!objectUrl || !type || !DRAWN_IMAGE_TYPES.has(type)) return null;
  return (
    <Box
      component="img"
      src={objectUrl}
      alt={alt}
      onLoad={onLoad}
      sx={{ display: 'block', maxWidth: '100%', maxHeight, width: 'auto', height: 'auto', objectFit: 'contain', borderRadius: 1, my: 0.5, bgcolor: 'background.paper' }}
    />
  );
}

import Avatar, { type AvatarProps } from '@mui/material/Avatar';

/** First letters of the first and last name ("Maria Papadopoulou" → "MP"). */
export function initialsOf(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const first = (s: string | null | undefined) => Array.from(s?.trim() ?? '')[0] ?? '';
  return `${first(firstName)}${first(lastName)}`.toLocaleUpperCase() || '?';
}

/** A steady colour per name, so the same person always gets the same initials avatar. */
function colourOf(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 45% 32%)`;
}

interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'children'> {
  user: { first_name: string; last_name: string; profile_picture: string | null };
  size?: number;
  /** Text alternative of the picture; empty when the name is written beside it. */
  alt: string;
}

/** The profile picture, or the user's initials when there is none (no outside image service). */
export function UserAvatar({ user, size = 40, alt, sx, ...rest }: UserAvatarProps) {
  const name = `${user.first_name} ${user.last_name}`;
  const extra = Array.isArray(sx) ? sx : [sx];
  if (user.profile_picture) return <Avatar src={user.profile_picture} alt={alt} sx={[{ width: size, height: size }, ...extra]} {...rest} />;
  return (
    <Avatar
      role={alt ? 'img' : undefined}
      aria-label={alt || undefined}
      aria-hidden={alt ? undefined : true}
      sx={[{ width: size, height: size, fontSize: size * 0.4, fontWeight: 600, bgcolor: colourOf(name), color: '#fff' }, ...extra]}
      {...rest}
    >
      {/* A name's letters: not words to translate. */}
      <span translate="no">{initialsOf(user.first_name, user.last_name)}</span>
    </Avatar>
  );
}

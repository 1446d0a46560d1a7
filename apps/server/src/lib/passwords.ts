import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum profile (m = 19 MiB, t = 2, p = 1). */
/** Algorithm 2 is Argon2id in @node-rs/argon2's (const) enum. */
const PARAMS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

import { LRUCache } from 'lru-cache';
import type { SessionUserRecord } from '../users/users.repository';

interface Entry {
  user: SessionUserRecord;
  /** When the session ends (the database's expires_at), epoch ms. */
  endsAtMs: number;
}

/** What a session lookup answers: the user, and when the session ends. */
export interface SessionAnswer {
  user: SessionUserRecord;
  endsAtMs: number;
}

/**
 * The live sessions this process has answered lately, with their users: a signed-in request is
 * then answered without a database round trip. Correct, not just recent: the database notifies
 * every process of any change that could alter an answer (the `healthbook_sessions` channel;
 * migration 0010), and the copy is used only while that channel is heard. While it is not, every
 * request reads the database. An answer is kept at most `ttlMs` and never past the session's end.
 */
export class SessionCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly byUser = new Map<number, Set<string>>();
  private readonly loading = new Map<string, Promise<SessionAnswer | undefined>>();
  /** Bumped by every forgetting: a load that started before must not store what it read. */
  private generation = 0;
  private live = false;

  constructor(opts: { max?: number; ttlMs?: number } = {}) {
    this.entries = new LRUCache<string, Entry>({
      max: opts.max ?? 50_000,
      ttl: opts.ttlMs ?? 60_000,
      ttlAutopurge: false,
      dispose: (entry, sid) => {
        const sids = this.byUser.get(entry.user.id);
        sids?.delete(sid);
        if (sids?.size === 0) this.byUser.delete(entry.user.id);
      },
    });
  }

  /** The session's answer: from memory while the change channel is heard, else by `load`. */
  async get(sid: string, load: () => Promise<SessionAnswer | undefined>): Promise<SessionUserRecord | undefined> {
    if (!this.live) return (await load())?.user;
    const hit = this.entries.get(sid);
    if (hit) {
      if (hit.endsAtMs > Date.now()) return hit.user;
      this.entries.delete(sid);
    }
    let pending = this.loading.get(sid);
    if (!pending) {
      const generation = this.generation;
      pending = load().finally(() => {
        if (this.loading.get(sid) === pending) this.loading.delete(sid);
      });
      this.loading.set(sid, pending);
      const answer = await pending;
      if (answer && this.live && generation === this.generation) this.store(sid, answer);
      return answer?.user;
    }
    return (await pending)?.user;
  }

  /** A notification: `u<user id>` or `o<organisation id>`; anything else forgets everything. */
  changed(payload: string): void {
    const id = Number(payload.slice(1));
    if (payload.startsWith('u') && Number.isSafeInteger(id)) this.forgetUser(id);
    else if (payload.startsWith('o') && Number.isSafeInteger(id)) this.forgetWhere((entry) => entry.user.org_id === id);
    else this.clear();
  }

  /** Whether the change channel is heard; any change of state forgets everything. */
  setLive(live: boolean): void {
    this.live = live;
    this.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(sid: string, answer: SessionAnswer) {
    this.entries.set(sid, { user: deepFreeze(answer.user), endsAtMs: answer.endsAtMs });
    let sids = this.byUser.get(answer.user.id);
    if (!sids) this.byUser.set(answer.user.id, (sids = new Set()));
    sids.add(sid);
  }

  private forgetUser(userId: number) {
    this.generation++;
    this.loading.clear();
    for (const sid of [...(this.byUser.get(userId) ?? [])]) this.entries.delete(sid);
  }

  private forgetWhere(test: (entry: Entry) => boolean) {
    this.generation++;
    this.loading.clear();
    for (const [sid, entry] of [...this.entries.entries()]) if (test(entry)) this.entries.delete(sid);
  }

  private clear() {
    this.generation++;
    this.loading.clear();
    this.entries.clear();
    this.byUser.clear();
  }
}

/** A shared answer must not be changed by one request under the next one's feet. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

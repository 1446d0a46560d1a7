import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SignalData } from '@healthbook/shared/visit-protocol';
import { PeerCall } from './peer-call';

/** A track: only its kind matters to the call. */
class FakeTrack {
  static count = 0;
  readonly id: string;
  constructor(readonly kind: 'audio' | 'video') {
    this.id = `${kind}-${++FakeTrack.count}`;
  }
}

/** jsdom has no MediaStream: the few methods the call uses. */
class FakeMediaStream {
  private readonly tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks];
  }
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((t) => t.kind === 'video');
  }
  addTrack(track: FakeTrack) {
    this.tracks.push(track);
  }
}

class FakeSender {
  constructor(public track: FakeTrack | null) {}
  replaceTrack = vi.fn(async (track: FakeTrack | null) => {
    this.track = track;
  });
}

type Description = { type: RTCSdpType; sdp?: string };

/**
 * An RTCPeerConnection the test drives: it records each call in `calls` and follows the signalling
 * states of the specification (an offer set on a side with its own offer pending rolls that back),
 * throwing on a description out of order as a browser would.
 */
class FakePeerConnection {
  static instances: FakePeerConnection[] = [];
  static last(): FakePeerConnection {
    return FakePeerConnection.instances[FakePeerConnection.instances.length - 1]!;
  }
  calls: Array<[string, unknown?]> = [];
  signalingState: RTCSignalingState = 'stable';
  iceConnectionState: RTCIceConnectionState = 'new';
  connectionState: RTCPeerConnectionState = 'new';
  localDescription: Description | null = null;
  remoteDescription: Description | null = null;
  senders: FakeSender[] = [];
  /** When set, setLocalDescription waits for it (an offer being made). */
  localGate: Promise<void> | null = null;
  /** When true, addIceCandidate rejects (a candidate of a description not applied). */
  failCandidates = false;
  private offers = 0;
  onnegotiationneeded: ((event: unknown) => void) | null = null;
  onicecandidate: ((event: { candidate: Partial<RTCIceCandidate> | null }) => void) | null = null;
  ontrack: ((event: { track: FakeTrack }) => void) | null = null;
  oniceconnectionstatechange: ((event: unknown) => void) | null = null;
  onconnectionstatechange: ((event: unknown) => void) | null = null;

  constructor(readonly config: RTCConfiguration) {
    FakePeerConnection.instances.push(this);
  }
  addTrack(track: FakeTrack, stream: FakeMediaStream) {
    this.calls.push(['addTrack', { track, stream }]);
    const sender = new FakeSender(track);
    this.senders.push(sender);
    return sender;
  }
  /** Like a browser's operations chain: one description or candidate operation at a time, in order. */
  private chain: Promise<unknown> = Promise.resolve();
  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.chain.then(operation);
    this.chain = result.catch(() => undefined);
    return result;
  }
  setLocalDescription(description?: Description) {
    this.calls.push(['setLocalDescription', description]);
    const gate = this.localGate;
    return this.enqueue(async () => {
      if (gate) await gate;
      this.applyLocal();
    });
  }
  private applyLocal() {
    if (this.signalingState === 'have-remote-offer') {
      this.localDescription = { type: 'answer', sdp: `answer to ${this.remoteDescription?.sdp}` };
      this.signalingState = 'stable';
    } else {
      this.localDescription = { type: 'offer', sdp: `local offer ${++this.offers}` };
      this.signalingState = 'have-local-offer';
    }
  }
  setRemoteDescription(description: Description) {
    this.calls.push(['setRemoteDescription', description]);
    return this.enqueue(async () => this.applyRemote(description));
  }
  private applyRemote(description: Description) {
    if (description.type === 'offer') {
      if (this.signalingState !== 'stable' && this.signalingState !== 'have-local-offer') throw new DOMException('offer out of order', 'InvalidStateError');
      // An offer of our own still pending is rolled back (implicitly).
      this.signalingState = 'have-remote-offer';
    } else if (description.type === 'answer') {
      if (this.signalingState !== 'have-local-offer') throw new DOMException('answer out of order', 'InvalidStateError');
      this.signalingState = 'stable';
    }
    this.remoteDescription = description;
  }
  addIceCandidate(candidate: RTCIceCandidateInit) {
    this.calls.push(['addIceCandidate', candidate]);
    const fail = this.failCandidates;
    return this.enqueue(async () => {
      if (fail) throw new DOMException('no remote description for this candidate', 'OperationError');
    });
  }
  restartIce() {
    this.calls.push(['restartIce']);
  }
  close() {
    this.calls.push(['close']);
    this.signalingState = 'closed';
  }
  /** The names of the calls made, in order. */
  names() {
    return this.calls.map(([name]) => name);
  }
  count(name: string) {
    return this.calls.filter(([n]) => n === name).length;
  }
  /** ICE changes state, as the browser tells it. */
  ice(state: RTCIceConnectionState) {
    this.iceConnectionState = state;
    this.oniceconnectionstatechange?.({});
  }
}

/** Lets the call's awaited promises settle (independent of the fake timers). */
async function flush() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function setup({ polite = false, tracks = [new FakeTrack('audio'), new FakeTrack('video')] }: { polite?: boolean; tracks?: FakeTrack[] } = {}) {
  const signals: SignalData[] = [];
  const remoteStreams: FakeMediaStream[] = [];
  const states: RTCPeerConnectionState[] = [];
  const local = new FakeMediaStream(tracks);
  const call = new PeerCall(
    {
      polite,
      iceServers: [{ urls: 'stun:stun.example:3478' }],
      signal: (data) => {
        signals.push(data);
        return true;
      },
      onRemoteTrack: (stream) => remoteStreams.push(stream as unknown as FakeMediaStream),
      onConnectionState: (state) => states.push(state),
      PeerConnectionImpl: FakePeerConnection as unknown as typeof RTCPeerConnection,
    },
    local as unknown as MediaStream,
  );
  return { call, pc: FakePeerConnection.last(), signals, remoteStreams, states, local, tracks };
}

const remoteOffer = (sdp = 'remote offer'): SignalData => ({ description: { type: 'offer', sdp } });
const remoteCandidate: SignalData = { candidate: { candidate: 'candidate:1 1 udp 2122260223 192.0.2.7 54400 typ host', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'abcd' } };

beforeEach(() => {
  FakePeerConnection.instances = [];
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PeerCall', () => {
  it('opens the connection with the ICE servers and adds each local track once', () => {
    const { pc, tracks, local } = setup();
    expect(pc.config).toEqual({ iceServers: [{ urls: 'stun:stun.example:3478' }], iceTransportPolicy: 'all' });
    expect(pc.calls).toEqual([
      ['addTrack', { track: tracks[0], stream: local }],
      ['addTrack', { track: tracks[1], stream: local }],
    ]);
  });

  it('relays only when asked to', () => {
    const call = new PeerCall(
      { polite: true, iceServers: [], iceTransportPolicy: 'relay', signal: () => true, onRemoteTrack: () => undefined, onConnectionState: () => undefined, PeerConnectionImpl: FakePeerConnection as unknown as typeof RTCPeerConnection },
      new FakeMediaStream() as unknown as MediaStream,
    );
    expect((call.pc as unknown as FakePeerConnection).config.iceTransportPolicy).toBe('relay');
  });

  it('makes an offer when negotiation is needed and signals its description', async () => {
    const { pc, signals } = setup();
    pc.onnegotiationneeded?.({});
    await flush();
    expect(pc.calls.filter(([n]) => n === 'setLocalDescription')).toEqual([['setLocalDescription', undefined]]);
    expect(signals).toEqual([{ description: { type: 'offer', sdp: 'local offer 1' } }]);
  });

  it('signals a local ICE candidate with its four fields, and nothing at the end of gathering', () => {
    const { pc, signals } = setup();
    pc.onicecandidate?.({
      candidate: { candidate: 'candidate:2 1 udp 1686052607 203.0.113.5 61000 typ srflx', sdpMid: '1', sdpMLineIndex: 1, usernameFragment: 'wxyz', address: '203.0.113.5' } as Partial<RTCIceCandidate>,
    });
    pc.onicecandidate?.({ candidate: null });
    expect(signals).toEqual([{ candidate: { candidate: 'candidate:2 1 udp 1686052607 203.0.113.5 61000 typ srflx', sdpMid: '1', sdpMLineIndex: 1, usernameFragment: 'wxyz' } }]);
  });

  it('answers an offer that arrives while stable', async () => {
    const { call, pc, signals } = setup();
    await call.receive(remoteOffer());
    expect(pc.names().slice(2)).toEqual(['setRemoteDescription', 'setLocalDescription']);
    expect(pc.calls[2]).toEqual(['setRemoteDescription', { type: 'offer', sdp: 'remote offer' }]);
    expect(signals).toEqual([{ description: { type: 'answer', sdp: 'answer to remote offer' } }]);
    expect(pc.signalingState).toBe('stable');
  });

  it('applies the answer to its own offer without answering it', async () => {
    const { call, pc, signals } = setup();
    pc.onnegotiationneeded?.({});
    await flush();
    await call.receive({ description: { type: 'answer', sdp: 'remote answer' } });
    expect(pc.calls.at(-1)).toEqual(['setRemoteDescription', { type: 'answer', sdp: 'remote answer' }]);
    expect(pc.count('setLocalDescription')).toBe(1);
    expect(signals).toHaveLength(1);
    expect(pc.signalingState).toBe('stable');
  });

  it('adds a remote candidate, and ignores the end-of-candidates null', async () => {
    const { call, pc } = setup();
    await call.receive(remoteCandidate);
    await call.receive({ candidate: null });
    expect(pc.calls.filter(([n]) => n === 'addIceCandidate')).toEqual([['addIceCandidate', (remoteCandidate as { candidate: unknown }).candidate]]);
  });

  describe('an offer collision', () => {
    it('the impolite side ignores an offer that arrives while it is making its own, then its candidates fail quietly', async () => {
      const { call, pc, signals } = setup({ polite: false });
      let release!: () => void;
      pc.localGate = new Promise((resolve) => (release = resolve));
      pc.onnegotiationneeded?.({});
      await flush();
      await call.receive(remoteOffer());
      expect(pc.count('setRemoteDescription')).toBe(0);
      // A candidate of the ignored offer cannot be added (it waits for the offer being made, as in a
      // browser's operations chain): no error comes out of receive().
      pc.failCandidates = true;
      const candidate = call.receive(remoteCandidate);
      release();
      await expect(candidate).resolves.toBeUndefined();
      expect(pc.count('addIceCandidate')).toBe(1);
      await flush();
      // Its own offer goes on, and nothing answers the other's.
      expect(signals).toEqual([{ description: { type: 'offer', sdp: 'local offer 1' } }]);
    });

    it('the impolite side ignores an offer while its own is pending (have-local-offer)', async () => {
      const { call, pc, signals } = setup({ polite: false });
      pc.onnegotiationneeded?.({});
      await flush();
      expect(pc.signalingState).toBe('have-local-offer');
      await call.receive(remoteOffer());
      expect(pc.count('setRemoteDescription')).toBe(0);
      expect(signals).toHaveLength(1);
      // Then the other side, polite, answers our offer.
      await call.receive({ description: { type: 'answer', sdp: 'remote answer' } });
      expect(pc.signalingState).toBe('stable');
    });

    it('the polite side applies the other offer (rolling its own back) and answers it', async () => {
      const { call, pc, signals } = setup({ polite: true });
      pc.onnegotiationneeded?.({});
      await flush();
      expect(pc.signalingState).toBe('have-local-offer');
      await call.receive(remoteOffer('impolite offer'));
      expect(pc.calls.filter(([n]) => n === 'setRemoteDescription')).toEqual([['setRemoteDescription', { type: 'offer', sdp: 'impolite offer' }]]);
      expect(signals).toEqual([{ description: { type: 'offer', sdp: 'local offer 1' } }, { description: { type: 'answer', sdp: 'answer to impolite offer' } }]);
      expect(pc.signalingState).toBe('stable');
    });

    it('the polite side applies an offer that arrives while it is still making its own', async () => {
      const { call, pc, signals } = setup({ polite: true });
      let release!: () => void;
      pc.localGate = new Promise((resolve) => (release = resolve));
      pc.onnegotiationneeded?.({});
      await flush();
      const receiving = call.receive(remoteOffer('impolite offer'));
      await flush();
      expect(pc.calls.filter(([n]) => n === 'setRemoteDescription')).toEqual([['setRemoteDescription', { type: 'offer', sdp: 'impolite offer' }]]);
      release();
      await receiving;
      await flush();
      expect(signals).toEqual([{ description: { type: 'offer', sdp: 'local offer 1' } }, { description: { type: 'answer', sdp: 'answer to impolite offer' } }]);
      expect(pc.signalingState).toBe('stable');
    });

    it('a candidate that fails when no offer was ignored is an error', async () => {
      const { call, pc } = setup({ polite: true });
      pc.failCandidates = true;
      await expect(call.receive(remoteCandidate)).rejects.toMatchObject({ name: 'OperationError' });
    });
  });

  it("ignores the other side's 'media' signals", async () => {
    const { call, pc, signals } = setup();
    const before = pc.calls.length;
    await call.receive({ media: { audio: true, video: false, screen: false } });
    expect(pc.calls).toHaveLength(before);
    expect(signals).toHaveLength(0);
  });

  it('passes remote tracks on in one stream, each track once', () => {
    const { pc, remoteStreams } = setup();
    const audio = new FakeTrack('audio');
    const video = new FakeTrack('video');
    pc.ontrack?.({ track: audio });
    pc.ontrack?.({ track: video });
    pc.ontrack?.({ track: audio });
    expect(remoteStreams).toHaveLength(3);
    expect(new Set(remoteStreams).size).toBe(1);
    expect(remoteStreams[0]!.getTracks()).toEqual([audio, video]);
  });

  it('passes the connection state on', () => {
    const { pc, states } = setup();
    pc.connectionState = 'connected';
    pc.onconnectionstatechange?.({});
    expect(states).toEqual(['connected']);
  });

  describe('ICE restarts', () => {
    it('restarts ICE at once when it failed', () => {
      const { pc } = setup();
      pc.ice('failed');
      expect(pc.count('restartIce')).toBe(1);
    });

    it('restarts ICE after 3 s of being disconnected', async () => {
      const { pc } = setup();
      pc.ice('connected');
      pc.ice('disconnected');
      await vi.advanceTimersByTimeAsync(2_999);
      expect(pc.count('restartIce')).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(pc.count('restartIce')).toBe(1);
    });

    it('does not restart ICE when it recovered within 3 s', async () => {
      const { pc } = setup();
      pc.ice('disconnected');
      await vi.advanceTimersByTimeAsync(1_000);
      pc.ice('connected');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(pc.count('restartIce')).toBe(0);
    });

    it('does not restart ICE when the state changed back without its event', async () => {
      const { pc } = setup();
      pc.ice('disconnected');
      pc.iceConnectionState = 'connected';
      await vi.advanceTimersByTimeAsync(3_000);
      expect(pc.count('restartIce')).toBe(0);
    });

    it('a second disconnection starts the 3 s again', async () => {
      const { pc } = setup();
      pc.ice('disconnected');
      await vi.advanceTimersByTimeAsync(2_000);
      pc.ice('checking');
      pc.ice('disconnected');
      await vi.advanceTimersByTimeAsync(2_000);
      expect(pc.count('restartIce')).toBe(0);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(pc.count('restartIce')).toBe(1);
    });
  });

  describe('replaceTrack', () => {
    it("replaces the sender's track of that kind without adding one", async () => {
      const { call, pc } = setup();
      const screen = new FakeTrack('video');
      await call.replaceTrack('video', screen as unknown as MediaStreamTrack);
      expect(pc.senders[1]!.replaceTrack).toHaveBeenCalledWith(screen);
      await call.replaceTrack('audio', null);
      expect(pc.senders[0]!.replaceTrack).toHaveBeenCalledWith(null);
      expect(pc.count('addTrack')).toBe(2);
    });

    it('adds the track of a kind without a sender (a camera after an audio-only start), then replaces it', async () => {
      const { call, pc, local } = setup({ tracks: [new FakeTrack('audio')] });
      expect(pc.count('addTrack')).toBe(1);
      // No track, no sender: nothing to do.
      await call.replaceTrack('video', null);
      expect(pc.count('addTrack')).toBe(1);
      const camera = new FakeTrack('video');
      await call.replaceTrack('video', camera as unknown as MediaStreamTrack);
      expect(pc.calls.at(-1)).toEqual(['addTrack', { track: camera, stream: local }]);
      const other = new FakeTrack('video');
      await call.replaceTrack('video', other as unknown as MediaStreamTrack);
      expect(pc.count('addTrack')).toBe(2);
      expect(pc.senders[1]!.replaceTrack).toHaveBeenCalledWith(other);
    });
  });

  describe('close()', () => {
    it('closes the connection and ignores what comes after', async () => {
      const { call, pc, signals } = setup();
      pc.ice('disconnected');
      call.close();
      expect(pc.count('close')).toBe(1);
      const before = pc.calls.length;
      await call.receive(remoteOffer());
      await call.receive(remoteCandidate);
      await call.replaceTrack('video', null);
      call.restartIce();
      // A disconnection timer started before is cancelled.
      await vi.advanceTimersByTimeAsync(10_000);
      expect(pc.calls).toHaveLength(before);
      expect(signals).toHaveLength(0);
      expect(pc.onnegotiationneeded).toBeNull();
      expect(pc.onicecandidate).toBeNull();
      expect(pc.ontrack).toBeNull();
      expect(pc.oniceconnectionstatechange).toBeNull();
      expect(pc.onconnectionstatechange).toBeNull();
    });

    it('does not add a track once closed', async () => {
      const { call, pc } = setup({ tracks: [new FakeTrack('audio')] });
      call.close();
      await call.replaceTrack('video', new FakeTrack('video') as unknown as MediaStreamTrack);
      expect(pc.count('addTrack')).toBe(1);
    });
  });

  it('restartIce() restarts ICE while open', () => {
    const { call, pc } = setup();
    call.restartIce();
    expect(pc.count('restartIce')).toBe(1);
  });
});

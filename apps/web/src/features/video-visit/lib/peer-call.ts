import type { SignalData } from '@healthbook/shared/visit-protocol';

/**
 * One side of the visit's peer-to-peer call (WebRTC), without React. It follows the "perfect
 * negotiation" pattern of the WebRTC specification: either side may (re)negotiate at any time;
 * when both offer at once, the polite side (the patient's) rolls its offer back and answers, the
 * impolite one (the provider's) ignores the other's offer. So adding or replacing a track, an ICE
 * restart after a network change, or the other side joining again, all take the same path.
 *
 * Each local track is added once (so either side's transceivers pair up with the other's m-lines);
 * switching devices or sharing the screen replaces the sender's track without renegotiating, and a
 * camera turned on after an audio-only start adds its track (a renegotiation, the same path).
 */

export interface PeerCallOptions {
  polite: boolean;
  iceServers: RTCIceServer[];
  /** 'relay': only through TURN (a test proves the relay path with it). */
  iceTransportPolicy?: RTCIceTransportPolicy;
  /** Sends a signal to the other side over the visit's socket. */
  signal: (data: SignalData) => boolean;
  onRemoteTrack: (stream: MediaStream) => void;
  onConnectionState: (state: RTCPeerConnectionState) => void;
  PeerConnectionImpl?: typeof RTCPeerConnection;
}

/** How long ICE may stay "disconnected" (a network change) before the call restarts it. */
const DISCONNECTED_RESTART_MS = 3_000;

export class PeerCall {
  readonly pc: RTCPeerConnection;
  readonly remote: MediaStream;
  private makingOffer = false;
  private ignoreOffer = false;
  private settingRemoteAnswer = false;
  private readonly senders: Partial<Record<'audio' | 'video', RTCRtpSender>> = {};
  private disconnectedTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    private readonly options: PeerCallOptions,
    private readonly local: MediaStream,
  ) {
    const Impl = options.PeerConnectionImpl ?? RTCPeerConnection;
    this.pc = new Impl({ iceServers: options.iceServers, iceTransportPolicy: options.iceTransportPolicy ?? 'all' });
    this.remote = new MediaStream();
    for (const track of local.getTracks()) this.senders[track.kind as 'audio' | 'video'] = this.pc.addTrack(track, local);

    this.pc.ontrack = ({ track }) => {
      if (!this.remote.getTracks().includes(track)) this.remote.addTrack(track);
      options.onRemoteTrack(this.remote);
    };
    this.pc.onicecandidate = ({ candidate }) => {
      if (candidate) options.signal({ candidate: { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex, usernameFragment: candidate.usernameFragment } });
    };
    this.pc.onnegotiationneeded = () => void this.offer();
    this.pc.oniceconnectionstatechange = () => this.iceChanged();
    this.pc.onconnectionstatechange = () => options.onConnectionState(this.pc.connectionState);
  }

  /** A signal from the other side: a description (answered when it is an offer) or a candidate. */
  async receive(data: SignalData): Promise<void> {
    if (this.closed || 'media' in data || 'reset' in data) return;
    if ('description' in data) {
      const description = data.description;
      // An answer is expected while our offer is pending; an offer is a collision unless we are stable.
      const readyForOffer = !this.makingOffer && (this.pc.signalingState === 'stable' || this.settingRemoteAnswer);
      const collision = description.type === 'offer' && !readyForOffer;
      this.ignoreOffer = !this.options.polite && collision;
      if (this.ignoreOffer) return;
      this.settingRemoteAnswer = description.type === 'answer';
      await this.pc.setRemoteDescription(description as RTCSessionDescriptionInit);
      this.settingRemoteAnswer = false;
      if (description.type === 'offer') {
        await this.pc.setLocalDescription();
        this.sendDescription();
      }
      return;
    }
    if (!data.candidate) return;
    try {
      await this.pc.addIceCandidate(data.candidate as RTCIceCandidateInit);
    } catch (error) {
      // A candidate of an offer we ignored does not apply.
      if (!this.ignoreOffer) throw error;
    }
  }

  /** Sends `track` instead of the current one of its kind (another device, the screen, or none). */
  async replaceTrack(kind: 'audio' | 'video', track: MediaStreamTrack | null): Promise<void> {
    const sender = this.senders[kind];
    if (sender) await sender.replaceTrack(track);
    else if (track && !this.closed) this.senders[kind] = this.pc.addTrack(track, this.local);
  }

  /** Gathers new candidates and renegotiates (after a network change, or when ICE failed). */
  restartIce(): void {
    if (!this.closed) this.pc.restartIce();
  }

  close(): void {
    this.closed = true;
    if (this.disconnectedTimer) clearTimeout(this.disconnectedTimer);
    this.pc.ontrack = null;
    this.pc.onicecandidate = null;
    this.pc.onnegotiationneeded = null;
    this.pc.oniceconnectionstatechange = null;
    this.pc.onconnectionstatechange = null;
    this.pc.close();
  }

  private async offer(): Promise<void> {
    if (this.closed) return;
    try {
      this.makingOffer = true;
      await this.pc.setLocalDescription();
      this.sendDescription();
    } catch (error) {
      // Closed meanwhile, or a description the browser refused: the next negotiation tries again.
      console.warn('visit: an offer could not be made', error);
    } finally {
      this.makingOffer = false;
    }
  }

  private sendDescription(): void {
    const description = this.pc.localDescription;
    if (description) this.options.signal({ description: { type: description.type, sdp: description.sdp } });
  }

  private iceChanged(): void {
    const state = this.pc.iceConnectionState;
    if (this.disconnectedTimer) clearTimeout(this.disconnectedTimer);
    this.disconnectedTimer = null;
    if (state === 'failed') this.restartIce();
    else if (state === 'disconnected') this.disconnectedTimer = setTimeout(() => this.pc.iceConnectionState === 'disconnected' && this.restartIce(), DISCONNECTED_RESTART_MS);
  }
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Visit } from '@healthbook/shared/contracts/appointments';
import type { SignalData, VisitServerEvent } from '@healthbook/shared/visit-protocol';
import { getVisitTicket } from '../api/visit';
import { qualityOf, sampleOf, videoStalled, type CallQuality, type CallSample } from '../lib/call-stats';
import { PeerCall } from '../lib/peer-call';
import { VisitConnection, type VisitConnectionStatus } from '../lib/visit-connection';
import type { LocalMedia } from './use-local-media';

export interface MediaState {
  audio: boolean;
  video: boolean;
  screen: boolean;
}

export interface VisitCall {
  connection: VisitConnectionStatus;
  /** Why the socket closed for good (VISIT_CLOSE), once it did. */
  closeCode: number | null;
  status: Visit['status'];
  closesAt: string;
  peerPresent: boolean;
  /** The patient side is a carer acting for the patient (the provider is told). */
  peerActing: boolean;
  remoteStream: MediaStream | null;
  /** What the other side says of its media (muted, camera off, sharing its screen). */
  remoteMedia: MediaState;
  peerState: RTCPeerConnectionState;
  quality: CallQuality;
  relayed: boolean;
  /** The camera was turned off because its video could not get through (audio only). */
  audioOnlyFallback: boolean;
  muted: boolean;
  cameraOff: boolean;
  sharing: boolean;
  toggleMute: () => void;
  toggleCamera: () => void;
  shareScreen: () => Promise<void>;
  stopSharing: () => void;
  /** Closes the socket and the call (leaving; the visit goes on for the other side). */
  hangUp: () => void;
}

const STATS_EVERY_MS = 2_000;
/** Intervals in a row without a video frame sent (the bandwidth holding it back) before the camera gives way to audio only. */
const STALLED_INTERVALS = 3;
const PENDING_SIGNALS_MAX = 200;
/** How long a new peer connection may take to connect before the call starts over. */
const NEGOTIATION_TIMEOUT_MS = 12_000;

/**
 * The call of a video visit, for its page: the signalling socket (joined when `enabled`), the
 * waiting room's state (who is here, admitted or not), the peer connection once both sides are in
 * an admitted visit (a new one each time the other side joins again), the other side's media, the
 * connection's quality every two seconds, and this side's controls.
 */
export function useVisitCall(visit: Visit, media: LocalMedia, enabled: boolean): VisitCall {
  const [connection, setConnection] = useState<VisitConnectionStatus>('connecting');
  const [closeCode, setCloseCode] = useState<number | null>(null);
  const [status, setStatus] = useState<Visit['status']>(visit.status);
  const [closesAt, setClosesAt] = useState(visit.closes_at);
  const [peer, setPeer] = useState({ present: false, acting: false, generation: 0 });
  const [remoteStream, setRemoteStream] = useState<MediaStream | null>(null);
  const [remoteMedia, setRemoteMedia] = useState<MediaState>({ audio: true, video: true, screen: false });
  const [peerState, setPeerState] = useState<RTCPeerConnectionState>('new');
  const [quality, setQuality] = useState<CallQuality>('unknown');
  const [relayed, setRelayed] = useState(false);
  const [audioOnlyFallback, setAudioOnlyFallback] = useState(false);
  const [muted, setMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(false);
  const [screen, setScreen] = useState<MediaStreamTrack | null>(null);

  const connectionRef = useRef<VisitConnection | null>(null);
  const callRef = useRef<{ call: PeerCall; generation: number } | null>(null);
  const pending = useRef<SignalData[]>([]);
  /** Counts the peer connections made: what this side sends is set again on each. */
  const [callCount, setCallCount] = useState(0);

  const signal = useCallback((data: SignalData) => connectionRef.current?.signal(data) ?? false, []);

  const closeCall = useCallback(() => {
    callRef.current?.call.close();
    callRef.current = null;
    setRemoteStream(null);
    setPeerState('new');
    setQuality('unknown');
  }, []);

  const deliver = useCallback((data: SignalData) => {
    if ('media' in data) return setRemoteMedia(data.media);
    if ('reset' in data) {
      // The other side starts over: so does this one, with a new peer connection.
      pending.current = [];
      closeCall();
      setPeer((p) => ({ ...p, generation: p.generation + 1 }));
      return;
    }
    const current = callRef.current?.call;
    if (current) current.receive(data).catch((error: unknown) => console.warn('visit: a signal could not be applied', error));
    else if (pending.current.length < PENDING_SIGNALS_MAX) pending.current.push(data);
  }, [closeCall]);

  const onEvent = useCallback(
    (event: VisitServerEvent) => {
      switch (event.type) {
        case 'welcome':
          setStatus(event.status);
          setClosesAt(event.closes_at);
          break;
        case 'peer':
          // The other side joined (again: its earlier call is gone) or left.
          if (!event.present) pending.current = [];
          closeCall();
          setPeer((p) => ({ present: event.present, acting: event.acting_for_patient, generation: p.generation + 1 }));
          if (!event.present) setRemoteMedia({ audio: true, video: true, screen: false });
          break;
        case 'visit':
          setStatus(event.status);
          setClosesAt(event.closes_at);
          if (event.status === 'ended') closeCall();
          break;
        case 'signal':
          // Only an admitted visit's sockets pass signals on: one arriving says the visit is active,
          // whether or not its state event reached this page first.
          setStatus((current) => (current === 'ended' ? current : 'active'));
          deliver(event.data);
          break;
        default:
          break;
      }
    },
    [closeCall, deliver],
  );

  // The socket, from the moment the page joins until it is left.
  useEffect(() => {
    if (!enabled) return;
    const conn = new VisitConnection({
      slot: visit.availability_det_id,
      getTicket: () => getVisitTicket(visit.availability_det_id).then((t) => t.ticket),
      onEvent,
      onStatus: (next, code) => {
        setConnection(next);
        if (next === 'closed' && code !== undefined) setCloseCode(code);
        // A reconnection is a new socket: the other side sees this one join again and both start a new call.
        if (next === 'reconnecting') {
          closeCall();
          setPeer((p) => ({ ...p, present: false }));
        }
      },
    });
    connectionRef.current = conn;
    conn.connect();
    return () => {
      conn.close();
      connectionRef.current = null;
      closeCall();
    };
  }, [enabled, visit.availability_det_id, onEvent, closeCall]);

  const stream = media.stream;
  // The peer connection: once admitted with the other side here, one per time the other side joined.
  useEffect(() => {
    if (status !== 'active' || !peer.present || !stream || callRef.current?.generation === peer.generation) return;
    closeCall();
    const call = new PeerCall(
      {
        polite: visit.role === 'patient',
        iceServers: visit.ice_servers,
        signal,
        onRemoteTrack: (remote) => setRemoteStream(new MediaStream(remote.getTracks())),
        onConnectionState: setPeerState,
      },
      stream,
    );
    callRef.current = { call, generation: peer.generation };
    setCallCount((n) => n + 1);
    for (const data of pending.current.splice(0)) deliver(data);
  }, [status, peer.present, peer.generation, stream, visit.role, visit.ice_servers, signal, closeCall, deliver]);

  // What this side sends: the screen or the camera (none after the audio-only fallback), and the other side told.
  useEffect(() => {
    const call = callRef.current?.call;
    if (!stream) return;
    for (const track of stream.getAudioTracks()) track.enabled = !muted;
    for (const track of stream.getVideoTracks()) track.enabled = !cameraOff;
    if (call) {
      void call.replaceTrack('audio', stream.getAudioTracks()[0] ?? null);
      void call.replaceTrack('video', screen ?? (audioOnlyFallback ? null : (stream.getVideoTracks()[0] ?? null)));
    }
    signal({ media: { audio: !muted, video: Boolean(screen) || (!cameraOff && !audioOnlyFallback && stream.getVideoTracks().length > 0), screen: Boolean(screen) } });
  }, [stream, media.version, muted, cameraOff, screen, audioOnlyFallback, callCount, signal]);

  // A negotiation that has not connected in time (a signal lost on the way, a peer connection that
  // hung): the patient's side starts the call over on both sides. Only one side asks, so the two
  // never reset each other in turn.
  useEffect(() => {
    if (visit.role !== 'patient' || callCount === 0 || peerState === 'connected') return;
    const timer = setTimeout(() => {
      if (!callRef.current) return;
      pending.current = [];
      closeCall();
      signal({ reset: true });
      setPeer((p) => ({ ...p, generation: p.generation + 1 }));
    }, NEGOTIATION_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [visit.role, callCount, peerState, closeCall, signal]);

  // The connection's quality, and the fallback to audio only when the camera's video cannot get through.
  useEffect(() => {
    if (peerState !== 'connected') return;
    let previous: CallSample | null = null;
    let stalled = 0;
    const timer = setInterval(() => {
      const call = callRef.current?.call;
      if (!call) return;
      void call.pc.getStats().then((report) => {
        const sample = sampleOf(report);
        setQuality(qualityOf(previous, sample));
        setRelayed(sample.relayed);
        stalled = videoStalled(previous, sample) ? stalled + 1 : 0;
        if (stalled >= STALLED_INTERVALS) setAudioOnlyFallback(true);
        previous = sample;
      });
    }, STATS_EVERY_MS);
    return () => clearInterval(timer);
  }, [peerState]);

  // A network change (another Wi-Fi, back online): new candidates at once rather than after ICE fails.
  useEffect(() => {
    const restart = () => callRef.current?.call.restartIce();
    window.addEventListener('online', restart);
    return () => window.removeEventListener('online', restart);
  }, []);

  const stopSharing = useCallback(() => {
    setScreen((track) => {
      track?.stop();
      return null;
    });
  }, []);

  const shareScreen = useCallback(async () => {
    const display = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    const track = display.getVideoTracks()[0];
    if (!track) return;
    track.addEventListener('ended', () => setScreen((current) => (current === track ? null : current)));
    setScreen(track);
  }, []);

  return {
    connection,
    closeCode,
    status,
    closesAt,
    peerPresent: peer.present,
    peerActing: peer.acting,
    remoteStream,
    remoteMedia,
    peerState,
    quality,
    relayed,
    audioOnlyFallback,
    muted,
    cameraOff: cameraOff || audioOnlyFallback,
    sharing: screen !== null,
    toggleMute: useCallback(() => setMuted((m) => !m), []),
    toggleCamera: useCallback(() => {
      // Turning the camera on again after the fallback tries video once more.
      if (audioOnlyFallback) {
        setAudioOnlyFallback(false);
        setCameraOff(false);
      } else setCameraOff((c) => !c);
    }, [audioOnlyFallback]),
    shareScreen,
    stopSharing,
    hangUp: useCallback(() => {
      connectionRef.current?.close();
      closeCall();
    }, [closeCall]),
  };
}

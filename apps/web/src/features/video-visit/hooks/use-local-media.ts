import { useCallback, useEffect, useRef, useState } from 'react';
import { mediaProblemOf, type MediaProblem } from '../lib/media-problem';

/**
 * The camera and microphone of this device for the visit: asked for once (the browser's
 * permission prompt), chosen among the devices it has, kept in one MediaStream whose tracks are
 * swapped when another device is chosen (`version` counts the swaps, so the call sends the new
 * track). Without a usable camera the visit goes on with the microphone alone (audio only), and
 * says why; without a microphone either, it cannot start, and says why.
 */
export interface LocalMedia {
  stream: MediaStream | null;
  status: 'idle' | 'asking' | 'ready' | 'failed';
  /** Why nothing could be used (status failed). */
  problem: MediaProblem | null;
  /** Why the camera could not be used while the microphone can (audio only). */
  videoProblem: MediaProblem | null;
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
  cameraId: string;
  microphoneId: string;
  /** Counts the track swaps (another device chosen). */
  version: number;
  start: () => Promise<void>;
  chooseCamera: (deviceId: string) => Promise<void>;
  chooseMicrophone: (deviceId: string) => Promise<void>;
}

const VIDEO: MediaTrackConstraints = { width: { ideal: 1280 }, height: { ideal: 720 } };

export function useLocalMedia(): LocalMedia {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [status, setStatus] = useState<LocalMedia['status']>('idle');
  const [problem, setProblem] = useState<MediaProblem | null>(null);
  const [videoProblem, setVideoProblem] = useState<MediaProblem | null>(null);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [version, setVersion] = useState(0);
  const streamRef = useRef<MediaStream | null>(null);

  const listDevices = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    setDevices(await navigator.mediaDevices.enumerateDevices());
  }, []);

  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!media) return;
    const changed = () => void listDevices();
    media.addEventListener?.('devicechange', changed);
    return () => media.removeEventListener?.('devicechange', changed);
  }, [listDevices]);

  // The tracks stop when the visit's page is left (the camera's light goes off).
  useEffect(() => () => streamRef.current?.getTracks().forEach((track) => track.stop()), []);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setProblem('insecure');
      setStatus('failed');
      return;
    }
    setStatus('asking');
    setProblem(null);
    setVideoProblem(null);
    let next: MediaStream;
    try {
      next = await navigator.mediaDevices.getUserMedia({ audio: true, video: VIDEO });
    } catch (error) {
      // The camera alone may be the trouble (none, busy, refused): try the microphone.
      try {
        next = await navigator.mediaDevices.getUserMedia({ audio: true });
        setVideoProblem(mediaProblemOf(error));
      } catch (audioError) {
        setProblem(mediaProblemOf(audioError));
        setStatus('failed');
        return;
      }
    }
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = next;
    setStream(next);
    setStatus('ready');
    setVersion((v) => v + 1);
    await listDevices();
  }, [listDevices]);

  const choose = useCallback(async (kind: 'audio' | 'video', deviceId: string) => {
    const current = streamRef.current;
    if (!current) return;
    const constraints = kind === 'audio' ? { audio: { deviceId: { exact: deviceId } } } : { video: { ...VIDEO, deviceId: { exact: deviceId } } };
    let fresh: MediaStream;
    try {
      fresh = await navigator.mediaDevices.getUserMedia(constraints);
    } catch (error) {
      if (kind === 'video') setVideoProblem(mediaProblemOf(error));
      return;
    }
    const track = kind === 'audio' ? fresh.getAudioTracks()[0] : fresh.getVideoTracks()[0];
    if (!track) return;
    for (const old of kind === 'audio' ? current.getAudioTracks() : current.getVideoTracks()) {
      track.enabled = old.enabled;
      old.stop();
      current.removeTrack(old);
    }
    current.addTrack(track);
    if (kind === 'video') setVideoProblem(null);
    setVersion((v) => v + 1);
  }, []);

  const trackDevice = (track: MediaStreamTrack | undefined) => track?.getSettings().deviceId ?? '';
  return {
    stream,
    status,
    problem,
    videoProblem,
    cameras: devices.filter((d) => d.kind === 'videoinput' && d.deviceId),
    microphones: devices.filter((d) => d.kind === 'audioinput' && d.deviceId),
    cameraId: trackDevice(stream?.getVideoTracks()[0]),
    microphoneId: trackDevice(stream?.getAudioTracks()[0]),
    version,
    start,
    chooseCamera: useCallback((id: string) => choose('video', id), [choose]),
    chooseMicrophone: useCallback((id: string) => choose('audio', id), [choose]),
  };
}

/** The microphone's level, 0 to 1, about ten times a second, with a slow fall (the device check's meter). */
export function useMicLevel(stream: MediaStream | null, version: number): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    const track = stream?.getAudioTracks()[0];
    if (!track || typeof AudioContext === 'undefined') return;
    const context = new AudioContext();
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    // Created before any click on this page, the context may start suspended.
    void context.resume().catch(() => undefined);
    source.connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += s * s;
      // RMS to a 0..1 meter (speech sits around 0.05-0.2 RMS), falling back slowly so a short sound shows.
      const now = Math.min(1, Math.sqrt(sum / samples.length) * 4);
      setLevel((shown) => Math.max(now, shown * 0.8));
    }, 100);
    return () => {
      clearInterval(timer);
      source.disconnect();
      void context.close();
    };
  }, [stream, version]);
  return level;
}

/**
 * The call's quality as the patient and the provider see it ("Connection: good / fair / poor"),
 * read every few seconds from the peer connection's statistics (getStats): packet loss and round
 * trip over the last interval, and whether the other side's video frames still arrive. Pure
 * functions over plain samples, so the rule is tested without a browser.
 */

export interface CallSample {
  /** Milliseconds (the stats' timestamp). */
  at: number;
  /** The selected candidate pair's current round trip, in ms (null before one is selected). */
  rttMs: number | null;
  /** Inbound RTP, audio and video together. */
  packetsReceived: number;
  packetsLost: number;
  /** Inbound video frames decoded so far. */
  framesDecoded: number;
  /** Outbound video frames sent so far, and why their quality is limited (bandwidth, cpu, none). */
  framesSent: number;
  limitation: string | null;
  /** Whether the media go through a TURN relay (the local candidate of the selected pair is a relay one). */
  relayed: boolean;
}

export type CallQuality = 'unknown' | 'good' | 'fair' | 'poor';

/** One sample out of a stats report (what RTCPeerConnection.getStats() answers). */
export function sampleOf(report: RTCStatsReport, at = Date.now()): CallSample {
  const sample: CallSample = { at, rttMs: null, packetsReceived: 0, packetsLost: 0, framesDecoded: 0, framesSent: 0, limitation: null, relayed: false };
  let pair: Record<string, unknown> | undefined;
  const byId = new Map<string, Record<string, unknown>>();
  report.forEach((value: Record<string, unknown>) => byId.set(String(value.id), value));
  for (const stat of byId.values()) {
    switch (stat.type) {
      case 'inbound-rtp':
        sample.packetsReceived += num(stat.packetsReceived);
        sample.packetsLost += Math.max(0, num(stat.packetsLost));
        if (stat.kind === 'video') sample.framesDecoded += num(stat.framesDecoded);
        break;
      case 'outbound-rtp':
        if (stat.kind === 'video') {
          sample.framesSent += num(stat.framesSent);
          if (typeof stat.qualityLimitationReason === 'string') sample.limitation = stat.qualityLimitationReason;
        }
        break;
      case 'transport':
        if (typeof stat.selectedCandidatePairId === 'string') pair = byId.get(stat.selectedCandidatePairId);
        break;
      case 'candidate-pair':
        if (!pair && stat.nominated === true && stat.state === 'succeeded') pair = stat;
        break;
      default:
        break;
    }
  }
  if (pair) {
    if (typeof pair.currentRoundTripTime === 'number') sample.rttMs = pair.currentRoundTripTime * 1000;
    const local = byId.get(String(pair.localCandidateId));
    sample.relayed = local?.candidateType === 'relay';
  }
  return sample;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * The quality over the interval from `previous` to `current`: poor when more than 8% of the
 * packets were lost, the round trip is over 800 ms, or nothing arrived at all; good under 2% and
 * 300 ms; fair between. Unknown until two samples exist.
 */
export function qualityOf(previous: CallSample | null, current: CallSample): CallQuality {
  if (!previous) return 'unknown';
  const received = current.packetsReceived - previous.packetsReceived;
  const lost = current.packetsLost - previous.packetsLost;
  if (received <= 0) return 'poor';
  const loss = lost / (received + Math.max(0, lost));
  const rtt = current.rttMs ?? 0;
  if (loss > 0.08 || rtt > 800) return 'poor';
  if (loss < 0.02 && rtt < 300) return 'good';
  return 'fair';
}

/** Whether the camera's video could not be sent over the interval (no frame went out, held back by the bandwidth). */
export function videoStalled(previous: CallSample | null, current: CallSample): boolean {
  if (!previous) return false;
  return current.framesSent - previous.framesSent === 0 && current.limitation === 'bandwidth';
}

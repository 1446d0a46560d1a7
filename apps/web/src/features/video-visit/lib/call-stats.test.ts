import { describe, expect, it } from 'vitest';
import { qualityOf, sampleOf, videoStalled, type CallSample } from './call-stats';

const sample = (over: Partial<CallSample>): CallSample => ({ at: 0, rttMs: 50, packetsReceived: 0, packetsLost: 0, framesDecoded: 0, framesSent: 0, limitation: null, relayed: false, ...over });

describe('the call quality', () => {
  it('is unknown from one sample', () => {
    expect(qualityOf(null, sample({ packetsReceived: 100 }))).toBe('unknown');
  });

  it('is good with little loss and a short round trip, fair between, poor past 8% or 800 ms', () => {
    const before = sample({ packetsReceived: 1000, packetsLost: 0 });
    expect(qualityOf(before, sample({ packetsReceived: 1100, packetsLost: 1 }))).toBe('good');
    expect(qualityOf(before, sample({ packetsReceived: 1100, packetsLost: 5 }))).toBe('fair');
    expect(qualityOf(before, sample({ packetsReceived: 1100, packetsLost: 5, rttMs: 100 }))).toBe('fair');
    expect(qualityOf(before, sample({ packetsReceived: 1100, packetsLost: 10 }))).toBe('poor');
    expect(qualityOf(before, sample({ packetsReceived: 1100, rttMs: 400 }))).toBe('fair');
    expect(qualityOf(before, sample({ packetsReceived: 1100, rttMs: 900 }))).toBe('poor');
  });

  it('is poor when nothing arrived over the interval', () => {
    expect(qualityOf(sample({ packetsReceived: 500 }), sample({ packetsReceived: 500 }))).toBe('poor');
  });

  it('tells a camera held back by the bandwidth from one that sends', () => {
    expect(videoStalled(sample({ framesSent: 10 }), sample({ framesSent: 10, limitation: 'bandwidth' }))).toBe(true);
    expect(videoStalled(sample({ framesSent: 10 }), sample({ framesSent: 40, limitation: 'bandwidth' }))).toBe(false);
    expect(videoStalled(sample({ framesSent: 10 }), sample({ framesSent: 10, limitation: 'none' }))).toBe(false);
  });
});

describe('a sample of a stats report', () => {
  const report = (stats: Array<Record<string, unknown>>) => new Map(stats.map((s) => [String(s.id), s])) as unknown as RTCStatsReport;

  it('adds inbound audio and video, reads the selected pair through the transport, and sees a relay', () => {
    const s = sampleOf(
      report([
        { id: 'a', type: 'inbound-rtp', kind: 'audio', packetsReceived: 100, packetsLost: 2 },
        { id: 'v', type: 'inbound-rtp', kind: 'video', packetsReceived: 300, packetsLost: 1, framesDecoded: 42 },
        { id: 'o', type: 'outbound-rtp', kind: 'video', framesSent: 40, qualityLimitationReason: 'none' },
        { id: 't', type: 'transport', selectedCandidatePairId: 'p2' },
        { id: 'p1', type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.9, localCandidateId: 'l1' },
        { id: 'p2', type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.02, localCandidateId: 'l2' },
        { id: 'l1', type: 'local-candidate', candidateType: 'host' },
        { id: 'l2', type: 'local-candidate', candidateType: 'relay' },
      ]),
      7,
    );
    expect(s).toEqual({ at: 7, rttMs: 20, packetsReceived: 400, packetsLost: 3, framesDecoded: 42, framesSent: 40, limitation: 'none', relayed: true });
  });

  it('has no round trip before a pair is selected', () => {
    expect(sampleOf(report([{ id: 'a', type: 'inbound-rtp', kind: 'audio', packetsReceived: 1, packetsLost: 0 }])).rttMs).toBeNull();
  });
});

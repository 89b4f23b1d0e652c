/**
 * How long an uploaded utterance plays, measured the way a decoder meets it: every audio packet
 * of the file counts with the number of samples it decodes to, and where the container keeps a
 * timeline (Ogg granule positions, WebM block timestamps, MP4 sample durations) the longer of the
 * two counts. The transcription providers bill the audio they decode, so this is what the day's
 * STT seconds count and what the 60-second limit is checked against, whatever the recorder
 * declared in `x-audio-duration` or the container's header claims.
 *
 * What is measured, per container and codec (the recorders' formats and the usual files):
 * - Ogg with Opus (Firefox's recorder): Opus packets by their TOC byte (RFC 6716, 3.1);
 * - WebM/Matroska with Opus (Chrome's and Firefox's recorders): SimpleBlocks and Blocks, laced or
 *   not, of the audio track, by their TOC byte, and the block timestamps;
 * - MP4 with AAC (Safari's recorder) or Opus (Chrome's `audio/mp4`), sample tables or fragments:
 *   AAC frames decode to 1024 samples at the rate of their AudioSpecificConfig, Opus samples by
 *   their TOC byte, and the tracks' sample durations;
 * - ADTS AAC and MP3: the frames, found as a decoder finds them (skipping what is not a frame);
 * - WAV with PCM, IEEE float, A-law or µ-law: data bytes / (sample rate × block align).
 * Anything else (Vorbis, FLAC, ADIF, compressed WAV, a file that does not parse as its type) is
 * not measured: null, and the function refuses it rather than pass on audio it cannot bound.
 */

export interface Measured {
  seconds: number;
}

// ------------------------------------------------------------------------------------------------
// Opus packets (RFC 6716, section 3.1)

const OPUS_RATE = 48_000;

/** Samples at 48 kHz that an Opus packet decodes to, or null when it is not a valid packet. */
export function opusPacketSamples(bytes: Uint8Array, offset: number, length: number): number | null {
  if (length < 1 || offset + length > bytes.length) return null;
  const toc = bytes[offset] ?? 0;
  const config = toc >> 3;
  let frame: number;
  if (config < 12) frame = [480, 960, 1920, 2880][config % 4] ?? 0;
  else if (config < 16) frame = config % 2 === 0 ? 480 : 960;
  else frame = [120, 240, 480, 960][config % 4] ?? 0;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (length >= 2 ? (bytes[offset + 1] ?? 0) & 0x3f : 0) : 2;
  const samples = frame * frames;
  // A packet holds at most 120 ms.
  return frames > 0 && samples <= 5760 ? samples : null;
}

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, Math.min(bytes.length, start + length)));

function indexOf(bytes: Uint8Array, pattern: readonly number[], from: number): number {
  const first = pattern[0] ?? 0;
  for (let index = bytes.indexOf(first, from); index >= 0 && index + pattern.length <= bytes.length; index = bytes.indexOf(first, index + 1)) {
    if (pattern.every((value, step) => bytes[index + step] === value)) return index;
  }
  return -1;
}

// ------------------------------------------------------------------------------------------------
// Ogg (RFC 3533) with Opus (RFC 7845)

const OGGS = [0x4f, 0x67, 0x67, 0x53];

interface OggStream {
  codec: 'opus' | 'other' | null;
  packets: number;
  samples: number;
  preSkip: number;
  granule: number;
  /** The packet being assembled across pages: its first two bytes and length so far. */
  head: number[];
  length: number;
}

function oggDuration(bytes: Uint8Array): Measured | null {
  const streams = new Map<number, OggStream>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damage = { found: false };

  const finishPacket = (stream: OggStream, bodyStart: number) => {
    if (stream.packets === 0) {
      const opusHead = ascii(bytes, bodyStart, 8) === 'OpusHead';
      stream.codec = opusHead ? 'opus' : 'other';
      if (opusHead && bodyStart + 12 <= bytes.length) stream.preSkip = view.getUint16(bodyStart + 10, true);
    } else if (stream.codec === 'opus' && stream.packets >= 2 && stream.length > 0) {
      // The TOC byte (and the frame count byte of code 3) is all that decides the samples.
      const samples = opusPacketSamples(Uint8Array.from(stream.head), 0, Math.min(2, stream.length));
      if (samples === null) damage.found = true;
      else stream.samples += samples;
    }
    stream.packets += 1;
    stream.head = [];
    stream.length = 0;
  };

  // Like a demuxer, skip what is not a page until the next capture pattern.
  for (let offset = indexOf(bytes, OGGS, 0); offset >= 0 && offset + 27 <= bytes.length; ) {
    const segments = bytes[offset + 26] ?? 0;
    const tableEnd = offset + 27 + segments;
    if (bytes[offset + 4] !== 0 || tableEnd > bytes.length) {
      offset = indexOf(bytes, OGGS, offset + 1);
      continue;
    }
    const lacing = bytes.subarray(offset + 27, tableEnd);
    const bodySize = lacing.reduce((sum, value) => sum + value, 0);
    if (tableEnd + bodySize > bytes.length) break; // a page cut off at the end holds nothing playable
    const serial = view.getUint32(offset + 14, true);
    const granule = Number(view.getBigInt64(offset + 6, true));
    let stream = streams.get(serial);
    if (!stream) {
      stream = { codec: null, packets: 0, samples: 0, preSkip: 0, granule: 0, head: [], length: 0 };
      streams.set(serial, stream);
    }
    let position = tableEnd;
    let packetStart = position;
    for (const value of lacing) {
      for (let index = 0; index < value && stream.head.length < 2; index += 1) stream.head.push(bytes[position + index] ?? 0);
      if (stream.length === 0) packetStart = position;
      stream.length += value;
      position += value;
      if (value < 255) finishPacket(stream, packetStart);
    }
    if (granule >= 0) stream.granule = Math.max(stream.granule, granule);
    offset = tableEnd + bodySize;
  }
  if (damage.found || streams.size === 0) return null;
  let seconds = 0;
  for (const stream of streams.values()) {
    if (stream.codec !== 'opus') return null;
    seconds = Math.max(seconds, stream.samples / OPUS_RATE, (stream.granule - stream.preSkip) / OPUS_RATE);
  }
  return { seconds };
}

// ------------------------------------------------------------------------------------------------
// WebM / Matroska (EBML)

const ID = {
  ebml: 0x1a45dfa3,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
} as const;

/** Level-1 elements of a segment: a cluster of unknown size ends where one of these begins. */
const SEGMENT_CHILDREN = new Set([0x114d9b74, ID.info, ID.tracks, ID.cluster, 0x1c53bb6b, 0x1043a770, 0x1254c367, 0x1941a469]);
/** Void and CRC-32, which may stand at any level. */
const ANY_LEVEL = new Set([0xec, 0xbf]);
const CLUSTER_BYTES = [0x1f, 0x43, 0xb6, 0x75];

interface Element {
  id: number;
  start: number;
  dataStart: number;
  /** End of the data; for an element of unknown size, the end of what contains it. */
  end: number;
  unknownSize: boolean;
}

function readVint(bytes: Uint8Array, offset: number, keepMarker: boolean): { value: number; length: number; allOnes: boolean } | null {
  const first = bytes[offset];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || offset + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = (first & (0xff >> length)) === 0xff >> length;
  for (let index = 1; index < length; index += 1) {
    const byte = bytes[offset + index] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, allOnes };
}

function readElement(bytes: Uint8Array, offset: number, parentEnd: number): Element | null {
  const id = readVint(bytes, offset, true);
  if (!id) return null;
  const size = readVint(bytes, offset + id.length, false);
  if (!size) return null;
  const dataStart = offset + id.length + size.length;
  if (size.allOnes) return { id: id.value, start: offset, dataStart, end: parentEnd, unknownSize: true };
  const end = dataStart + size.value;
  return end <= parentEnd ? { id: id.value, start: offset, dataStart, end, unknownSize: false } : null;
}

function readUint(bytes: Uint8Array, element: Element): number {
  let value = 0;
  for (let index = element.dataStart; index < element.end; index += 1) value = value * 256 + (bytes[index] ?? 0);
  return value;
}

function* children(bytes: Uint8Array, parent: { dataStart: number; end: number }): Generator<Element> {
  for (let offset = parent.dataStart; offset < parent.end; ) {
    const element = readElement(bytes, offset, parent.end);
    if (!element) return;
    yield element;
    if (element.unknownSize) return;
    offset = element.end;
  }
}

interface WebmTrack {
  audio: boolean;
  codec: string;
  samples: number;
  /** End of the last block on the timeline, in nanoseconds. */
  end: number;
}

/** The frames of a block's payload (lacing: none, Xiph, fixed-size, EBML): offset and length of each. */
function blockFrames(bytes: Uint8Array, start: number, end: number, lacing: number): { offset: number; length: number }[] | null {
  if (lacing === 0) return [{ offset: start, length: end - start }];
  const count = (bytes[start] ?? 0) + 1;
  let position = start + 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    for (let frame = 0; frame < count - 1; frame += 1) {
      let size = 0;
      for (;;) {
        const byte = bytes[position++];
        if (byte === undefined) return null;
        size += byte;
        if (byte < 255) break;
      }
      sizes.push(size);
    }
  } else if (lacing === 3) {
    const first = readVint(bytes, position, false);
    if (!first) return null;
    position += first.length;
    sizes.push(first.value);
    for (let frame = 1; frame < count - 1; frame += 1) {
      const delta = readVint(bytes, position, false);
      if (!delta) return null;
      position += delta.length;
      const bias = 2 ** (7 * delta.length - 1) - 1;
      sizes.push((sizes[frame - 1] ?? 0) + delta.value - bias);
    }
  }
  const fixedSize = lacing === 2 ? (end - position) / count : null;
  if (fixedSize !== null && !Number.isInteger(fixedSize)) return null;
  const frames: { offset: number; length: number }[] = [];
  for (let frame = 0; frame < count; frame += 1) {
    const length = fixedSize ?? (frame < count - 1 ? (sizes[frame] ?? -1) : end - position);
    if (length < 0 || position + length > end) return null;
    frames.push({ offset: position, length });
    position += length;
  }
  return frames;
}

function webmDuration(bytes: Uint8Array): Measured | null {
  const header = readElement(bytes, 0, bytes.length);
  if (header?.id !== ID.ebml) return null;
  let scale = 1_000_000;
  const tracks = new Map<number, WebmTrack>();
  const blocks: { track: number; time: number; offset: number; end: number; lacing: number }[] = [];

  const readBlock = (element: Element, clusterTime: number) => {
    const track = readVint(bytes, element.dataStart, false);
    if (!track || element.dataStart + track.length + 3 > element.end) return false;
    const at = element.dataStart + track.length;
    const relative = ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
    const time = clusterTime + (relative >= 0x8000 ? relative - 0x10000 : relative);
    blocks.push({ track: track.value, time, offset: at + 3, end: element.end, lacing: ((bytes[at + 2] ?? 0) >> 1) & 3 });
    return true;
  };

  const readCluster = (cluster: Element): number => {
    let clusterTime = 0;
    let offset = cluster.dataStart;
    while (offset < cluster.end) {
      const element = readElement(bytes, offset, cluster.end);
      // A cluster of unknown size ends at the next level-1 element (or where it stops parsing).
      if (!element || element.unknownSize || (cluster.unknownSize && SEGMENT_CHILDREN.has(element.id))) break;
      if (element.id === ID.timecode) clusterTime = readUint(bytes, element);
      else if (element.id === ID.simpleBlock) readBlock(element, clusterTime);
      else if (element.id === ID.blockGroup) {
        for (const child of children(bytes, element)) if (child.id === ID.block) readBlock(child, clusterTime);
      }
      offset = element.end;
    }
    return offset;
  };

  const readTracks = (element: Element) => {
    for (const entry of children(bytes, element)) {
      if (entry.id !== ID.trackEntry) continue;
      let number = 0;
      let type = 0;
      let codec = '';
      for (const field of children(bytes, entry)) {
        if (field.id === ID.trackNumber) number = readUint(bytes, field);
        else if (field.id === ID.trackType) type = readUint(bytes, field);
        else if (field.id === ID.codecId) codec = ascii(bytes, field.dataStart, field.end - field.dataStart).replace(/\0+$/u, '');
      }
      tracks.set(number, { audio: type === 2, codec, samples: 0, end: 0 });
    }
  };

  const segment = readElement(bytes, header.end, bytes.length);
  if (segment?.id !== ID.segment) return null;
  for (let offset = segment.dataStart; offset < segment.end; ) {
    const element = readElement(bytes, offset, segment.end);
    if (!element || !(SEGMENT_CHILDREN.has(element.id) || ANY_LEVEL.has(element.id))) {
      // As a demuxer does after damage: go on at the next cluster.
      const next = indexOf(bytes, CLUSTER_BYTES, offset + 1);
      if (next < 0 || next >= segment.end) break;
      offset = next;
      continue;
    }
    if (element.id === ID.info) {
      for (const field of children(bytes, element)) if (field.id === ID.timecodeScale) scale = readUint(bytes, field) || scale;
    } else if (element.id === ID.tracks) readTracks(element);
    if (element.id === ID.cluster) offset = readCluster(element);
    else if (element.unknownSize) break;
    else offset = element.end;
  }

  for (const block of blocks) {
    const track = tracks.get(block.track);
    if (!track?.audio) continue;
    if (track.codec !== 'A_OPUS') return null;
    const frames = blockFrames(bytes, block.offset, block.end, block.lacing);
    if (!frames) return null;
    let samples = 0;
    for (const frame of frames) {
      const decoded = opusPacketSamples(bytes, frame.offset, frame.length);
      if (decoded === null) return null;
      samples += decoded;
    }
    track.samples += samples;
    track.end = Math.max(track.end, block.time * scale + (samples / OPUS_RATE) * 1e9);
  }
  const audio = [...tracks.values()].filter((track) => track.audio);
  if (audio.length === 0) return null;
  if (audio.some((track) => track.codec !== 'A_OPUS')) return null;
  return { seconds: Math.max(...audio.map((track) => Math.max(track.samples / OPUS_RATE, track.end / 1e9))) };
}

// ------------------------------------------------------------------------------------------------
// MP4 (ISO base media file format)

interface Box {
  type: string;
  start: number;
  dataStart: number;
  end: number;
}

function* boxes(bytes: Uint8Array, start: number, end: number): Generator<Box> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = start; offset + 8 <= end; ) {
    let size = view.getUint32(offset);
    let dataStart = offset + 8;
    if (size === 1) {
      if (offset + 16 > end) return;
      size = Number(view.getBigUint64(offset + 8));
      dataStart = offset + 16;
    } else if (size === 0) size = end - offset;
    if (size < dataStart - offset || offset + size > end) return;
    yield { type: ascii(bytes, offset + 4, 4), start: offset, dataStart, end: offset + size };
    offset += size;
  }
}

function child(bytes: Uint8Array, parent: Box, type: string): Box | null {
  for (const box of boxes(bytes, parent.dataStart, parent.end)) if (box.type === type) return box;
  return null;
}

function path(bytes: Uint8Array, parent: Box | null, ...types: string[]): Box | null {
  let box = parent;
  for (const type of types) box = box ? child(bytes, box, type) : null;
  return box;
}

interface Mp4Track {
  id: number;
  codec: 'aac' | 'opus' | 'other';
  timescale: number;
  /** The AAC frames' sampling rate (AudioSpecificConfig, else the sample entry's rate). */
  sampleRate: number;
  timeline: number;
  /** Offset and size of each sample, where known. */
  samples: { offset: number; size: number }[];
  defaultDuration: number;
  defaultSize: number;
}

const AAC_RATES = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8000, 7350];

/** The sampling rate of an `esds` box's AudioSpecificConfig (ISO 14496-1 and -3), or null. */
function esdsSampleRate(bytes: Uint8Array, esds: Box): number | null {
  let offset = esds.dataStart + 4;
  const descriptor = (): { tag: number; start: number; end: number } | null => {
    const tag = bytes[offset];
    if (tag === undefined) return null;
    let length = 0;
    let position = offset + 1;
    for (let index = 0; index < 4; index += 1) {
      const byte = bytes[position++] ?? 0;
      length = (length << 7) | (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    return { tag, start: position, end: position + length };
  };
  const es = descriptor();
  if (es?.tag !== 0x03) return null;
  // ES_ID, then flags: stream dependence (2 more bytes), URL (length and text), OCR stream (2 bytes).
  const flags = bytes[es.start + 2] ?? 0;
  offset = es.start + 3;
  if (flags & 0x80) offset += 2;
  if (flags & 0x40) offset += 1 + (bytes[offset] ?? 0);
  if (flags & 0x20) offset += 2;
  const config = descriptor();
  if (config?.tag !== 0x04) return null;
  offset = config.start + 13;
  const specific = descriptor();
  if (specific?.tag !== 0x05) return null;
  let bit = specific.start * 8;
  const read = (count: number): number => {
    let value = 0;
    for (let index = 0; index < count; index += 1, bit += 1) value = value * 2 + (((bytes[bit >> 3] ?? 0) >> (7 - (bit & 7))) & 1);
    return value;
  };
  if (read(5) === 31) read(6);
  const index = read(4);
  const rate = index === 15 ? read(24) : AAC_RATES[index];
  return rate !== undefined && rate > 0 ? rate : null;
}

function mp4Track(bytes: Uint8Array, trak: Box): Mp4Track | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const handler = path(bytes, trak, 'mdia', 'hdlr');
  if (!handler || ascii(bytes, handler.dataStart + 8, 4) !== 'soun') return null;
  const tkhd = child(bytes, trak, 'tkhd');
  const mdhd = path(bytes, trak, 'mdia', 'mdhd');
  const stbl = path(bytes, trak, 'mdia', 'minf', 'stbl');
  if (!tkhd || !mdhd || !stbl) return null;
  const tkhdVersion = bytes[tkhd.dataStart] ?? 0;
  const id = view.getUint32(tkhd.dataStart + (tkhdVersion === 1 ? 20 : 12));
  const mdhdVersion = bytes[mdhd.dataStart] ?? 0;
  const timescale = view.getUint32(mdhd.dataStart + (mdhdVersion === 1 ? 20 : 12));
  const stsd = child(bytes, stbl, 'stsd');
  const entry = stsd ? [...boxes(bytes, stsd.dataStart + 8, stsd.end)][0] : undefined;
  if (!entry || timescale === 0) return null;
  const codec = entry.type === 'mp4a' ? 'aac' : entry.type === 'Opus' ? 'opus' : 'other';
  const entryRate = entry.dataStart + 28 <= entry.end ? view.getUint32(entry.dataStart + 24) >>> 16 : 0;
  const esds = codec === 'aac' ? [...boxes(bytes, entry.dataStart + 28, entry.end)].find((box) => box.type === 'esds') : undefined;
  const sampleRate = (esds ? esdsSampleRate(bytes, esds) : null) ?? (entryRate || timescale);

  let timeline = 0;
  const stts = child(bytes, stbl, 'stts');
  if (stts) {
    const count = view.getUint32(stts.dataStart + 4);
    for (let index = 0; index < count && stts.dataStart + 16 + index * 8 <= stts.end; index += 1) {
      timeline += view.getUint32(stts.dataStart + 8 + index * 8) * view.getUint32(stts.dataStart + 12 + index * 8);
    }
  }

  // Sample sizes (stsz) laid out over the chunks (stsc, stco/co64).
  const sizes: number[] = [];
  const stsz = child(bytes, stbl, 'stsz');
  if (stsz) {
    const uniform = view.getUint32(stsz.dataStart + 4);
    const count = view.getUint32(stsz.dataStart + 8);
    for (let index = 0; index < count; index += 1) {
      if (uniform === 0 && stsz.dataStart + 16 + index * 4 > stsz.end) return null;
      sizes.push(uniform || view.getUint32(stsz.dataStart + 12 + index * 4));
    }
  }
  const chunkOffsets: number[] = [];
  const stco = child(bytes, stbl, 'stco') ?? child(bytes, stbl, 'co64');
  if (stco) {
    const wide = stco.type === 'co64';
    const count = view.getUint32(stco.dataStart + 4);
    for (let index = 0; index < count && stco.dataStart + 8 + (index + 1) * (wide ? 8 : 4) <= stco.end; index += 1) {
      chunkOffsets.push(wide ? Number(view.getBigUint64(stco.dataStart + 8 + index * 8)) : view.getUint32(stco.dataStart + 8 + index * 4));
    }
  }
  const runs: { firstChunk: number; perChunk: number }[] = [];
  const stsc = child(bytes, stbl, 'stsc');
  if (stsc) {
    const count = view.getUint32(stsc.dataStart + 4);
    for (let index = 0; index < count && stsc.dataStart + 8 + (index + 1) * 12 <= stsc.end; index += 1) {
      runs.push({ firstChunk: view.getUint32(stsc.dataStart + 8 + index * 12), perChunk: view.getUint32(stsc.dataStart + 12 + index * 12) });
    }
  }
  const samples: { offset: number; size: number }[] = [];
  let sample = 0;
  for (let chunk = 0; chunk < chunkOffsets.length && sample < sizes.length; chunk += 1) {
    const run = runs.filter((item) => item.firstChunk <= chunk + 1).at(-1);
    let offset = chunkOffsets[chunk] ?? 0;
    for (let index = 0; index < (run?.perChunk ?? 0) && sample < sizes.length; index += 1) {
      const size = sizes[sample++] ?? 0;
      samples.push({ offset, size });
      offset += size;
    }
  }
  // Samples the tables size but no chunk places still count for AAC, which needs no offsets.
  while (samples.length < sizes.length) samples.push({ offset: -1, size: sizes[samples.length] ?? 0 });
  return { id, codec, timescale, sampleRate, timeline, samples, defaultDuration: 0, defaultSize: 0 };
}

function mp4Duration(bytes: Uint8Array): Measured | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = [...boxes(bytes, 0, bytes.length)];
  if (top[0]?.type !== 'ftyp') return null;
  const moov = top.find((box) => box.type === 'moov');
  if (!moov) return null;
  const tracks = new Map<number, Mp4Track>();
  for (const trak of boxes(bytes, moov.dataStart, moov.end)) {
    if (trak.type !== 'trak') continue;
    const track = mp4Track(bytes, trak);
    if (track) tracks.set(track.id, track);
  }
  const mvex = child(bytes, moov, 'mvex');
  for (const trex of mvex ? boxes(bytes, mvex.dataStart, mvex.end) : []) {
    if (trex.type !== 'trex' || trex.dataStart + 24 > trex.end) continue;
    const track = tracks.get(view.getUint32(trex.dataStart + 4));
    if (!track) continue;
    track.defaultDuration = view.getUint32(trex.dataStart + 12);
    track.defaultSize = view.getUint32(trex.dataStart + 16);
  }

  // Fragments: each trun's samples, placed from the moof (or the tfhd's base offset).
  for (const moof of top) {
    if (moof.type !== 'moof') continue;
    for (const traf of boxes(bytes, moof.dataStart, moof.end)) {
      if (traf.type !== 'traf') continue;
      const tfhd = child(bytes, traf, 'tfhd');
      if (!tfhd) continue;
      const flags = view.getUint32(tfhd.dataStart) & 0xffffff;
      const track = tracks.get(view.getUint32(tfhd.dataStart + 4));
      if (!track) continue;
      let position = tfhd.dataStart + 8;
      let base = moof.start;
      if (flags & 0x1) {
        base = Number(view.getBigUint64(position));
        position += 8;
      }
      if (flags & 0x2) position += 4;
      let duration = track.defaultDuration;
      let size = track.defaultSize;
      if (flags & 0x8) {
        duration = view.getUint32(position);
        position += 4;
      }
      if (flags & 0x10) size = view.getUint32(position);
      for (const trun of boxes(bytes, traf.dataStart, traf.end)) {
        if (trun.type !== 'trun') continue;
        const runFlags = view.getUint32(trun.dataStart) & 0xffffff;
        const count = view.getUint32(trun.dataStart + 4);
        let field = trun.dataStart + 8;
        let offset = base;
        if (runFlags & 0x1) {
          offset = base + view.getInt32(field);
          field += 4;
        }
        if (runFlags & 0x4) field += 4;
        for (let index = 0; index < count; index += 1) {
          if (field > trun.end) return null;
          let sampleDuration = duration;
          let sampleSize = size;
          if (runFlags & 0x100) {
            sampleDuration = view.getUint32(field);
            field += 4;
          }
          if (runFlags & 0x200) {
            sampleSize = view.getUint32(field);
            field += 4;
          }
          if (runFlags & 0x400) field += 4;
          if (runFlags & 0x800) field += 4;
          track.timeline += sampleDuration;
          track.samples.push({ offset, size: sampleSize });
          offset += sampleSize;
        }
      }
    }
  }

  const audio = [...tracks.values()];
  if (audio.length === 0 || audio.some((track) => track.codec === 'other')) return null;
  let seconds = 0;
  for (const track of audio) {
    let decoded = 0;
    if (track.codec === 'aac') decoded = (track.samples.length * 1024) / track.sampleRate;
    else {
      let total = 0;
      for (const sample of track.samples) {
        const samples = sample.offset < 0 ? null : opusPacketSamples(bytes, sample.offset, sample.size);
        if (samples === null) return null;
        total += samples;
      }
      decoded = total / OPUS_RATE;
    }
    seconds = Math.max(seconds, decoded, track.timeline / track.timescale);
  }
  return { seconds };
}

// ------------------------------------------------------------------------------------------------
// ADTS AAC and MP3: frames, found the way a decoder finds them

/** Past an ID3v2 tag (or several) at the start. */
function afterId3(bytes: Uint8Array): number {
  let offset = 0;
  while (ascii(bytes, offset, 3) === 'ID3' && offset + 10 <= bytes.length) {
    const size = (((bytes[offset + 6] ?? 0) & 0x7f) << 21) | (((bytes[offset + 7] ?? 0) & 0x7f) << 14) | (((bytes[offset + 8] ?? 0) & 0x7f) << 7) | ((bytes[offset + 9] ?? 0) & 0x7f);
    offset += 10 + size + ((bytes[offset + 5] ?? 0) & 0x10 ? 10 : 0);
  }
  return offset;
}

function adtsDuration(bytes: Uint8Array): Measured | null {
  let seconds = 0;
  let frames = 0;
  for (let offset = afterId3(bytes); offset + 7 <= bytes.length; ) {
    const b1 = bytes[offset + 1] ?? 0;
    if (bytes[offset] === 0xff && (b1 & 0xf6) === 0xf0) {
      const rate = AAC_RATES[((bytes[offset + 2] ?? 0) >> 2) & 0x0f];
      const length = (((bytes[offset + 3] ?? 0) & 0x03) << 11) | ((bytes[offset + 4] ?? 0) << 3) | ((bytes[offset + 5] ?? 0) >> 5);
      if (rate !== undefined && length >= 7) {
        if (offset + length > bytes.length) break;
        seconds += (((bytes[offset + 6] ?? 0) & 0x03) + 1) * (1024 / rate);
        frames += 1;
        offset += length;
        continue;
      }
    }
    offset += 1;
  }
  return frames > 0 ? { seconds } : null;
}

const MP3_BITRATES: Record<string, readonly number[]> = {
  // kbit/s by bitrate index 1..14, per MPEG version (1; 2 and 2.5) and layer.
  '1-1': [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES: Record<number, readonly number[]> = { 3: [44_100, 48_000, 32_000], 2: [22_050, 24_000, 16_000], 0: [11_025, 12_000, 8000] };

/** Length in bytes and samples of the MPEG audio frame at `offset`, or null when none starts there. */
function mpegFrame(bytes: Uint8Array, offset: number): { length: number; samples: number; rate: number } | null {
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0x03; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = 4 - ((b1 >> 1) & 0x03); // 1, 2, 3 (4: reserved)
  const bitrateIndex = b2 >> 4;
  const rate = MP3_RATES[version]?.[(b2 >> 2) & 0x03];
  if (version === 1 || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rate === undefined) return null;
  const kbps = MP3_BITRATES[`${version === 3 ? 1 : 2}-${String(layer)}`]?.[bitrateIndex - 1];
  if (kbps === undefined) return null;
  const padding = (b2 >> 1) & 0x01;
  const bitrate = kbps * 1000;
  if (layer === 1) return { length: (Math.floor((12 * bitrate) / rate) + padding) * 4, samples: 384, rate };
  const samples = layer === 3 && version !== 3 ? 576 : 1152;
  return { length: Math.floor(((samples / 8) * bitrate) / rate) + padding, samples, rate };
}

function mp3Duration(bytes: Uint8Array): Measured | null {
  let seconds = 0;
  let frames = 0;
  for (let offset = afterId3(bytes); offset + 4 <= bytes.length; ) {
    const frame = mpegFrame(bytes, offset);
    if (frame && offset + frame.length <= bytes.length) {
      seconds += frame.samples / frame.rate;
      frames += 1;
      offset += frame.length;
    } else offset += 1;
  }
  return frames > 0 ? { seconds } : null;
}

// ------------------------------------------------------------------------------------------------
// WAV

/** PCM, IEEE float, A-law, µ-law: formats whose length follows from rate and block size. */
const WAV_FORMATS = new Set([1, 3, 6, 7]);

function wavDuration(bytes: Uint8Array): Measured | null {
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let bytesPerSecond = 0;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = ascii(bytes, offset, 4);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ' && offset + 24 <= bytes.length) {
      let format = view.getUint16(offset + 8, true);
      if (format === 0xfffe && offset + 34 <= bytes.length) format = view.getUint16(offset + 32, true);
      const channels = view.getUint16(offset + 10, true);
      const rate = view.getUint32(offset + 12, true);
      const blockAlign = view.getUint16(offset + 20, true);
      const bits = view.getUint16(offset + 22, true);
      const consistent = channels > 0 && blockAlign === channels * Math.ceil(bits / 8) && rate >= 1000 && rate <= 384_000;
      if (!WAV_FORMATS.has(format) || !consistent) return null;
      bytesPerSecond = rate * blockAlign;
    }
    if (id === 'data') {
      if (bytesPerSecond === 0) return null;
      // A streaming writer may leave the size open (0 or 0xFFFFFFFF): count what is there.
      const available = bytes.length - (offset + 8);
      return { seconds: (size === 0 || size > available ? available : size) / bytesPerSecond };
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}

const PROBES: Record<string, (bytes: Uint8Array) => Measured | null> = {
  ogg: oggDuration,
  webm: webmDuration,
  mp4: mp4Duration,
  aac: adtsDuration,
  mp3: mp3Duration,
  wav: wavDuration,
};

/** The utterance's length in seconds for a file of this extension, or null when it cannot be measured. */
export function measureDuration(extension: string, bytes: Uint8Array): Measured | null {
  const probe = PROBES[extension];
  if (!probe) return null;
  try {
    const measured = probe(bytes);
    return measured && Number.isFinite(measured.seconds) && measured.seconds >= 0 ? measured : null;
  } catch {
    // A structure that points outside the file (a DataView read past the end): not measurable.
    return null;
  }
}

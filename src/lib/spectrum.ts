/**
 * The energy of a short frame of audio per frequency band: a Hann-windowed FFT whose power is
 * summed between band edges. Used to compare what the microphone hears with what the page plays
 * (the coach's echo), band by band.
 */

/** In-place radix-2 FFT of `re` + i·`im` (length a power of two). */
function fft(re: Float64Array, im: Float64Array): void {
  const size = re.length;
  for (let index = 1, swap = 0; index < size; index += 1) {
    let bit = size >> 1;
    for (; swap & bit; bit >>= 1) swap ^= bit;
    swap ^= bit;
    if (index < swap) {
      [re[index], re[swap]] = [re[swap] ?? 0, re[index] ?? 0];
      [im[index], im[swap]] = [im[swap] ?? 0, im[index] ?? 0];
    }
  }
  for (let length = 2; length <= size; length <<= 1) {
    const angle = (-2 * Math.PI) / length;
    const stepRe = Math.cos(angle);
    const stepIm = Math.sin(angle);
    for (let start = 0; start < size; start += length) {
      let wRe = 1;
      let wIm = 0;
      for (let k = 0; k < length / 2; k += 1) {
        const a = start + k;
        const b = a + length / 2;
        const bRe = re[b] ?? 0;
        const bIm = im[b] ?? 0;
        const tRe = bRe * wRe - bIm * wIm;
        const tIm = bRe * wIm + bIm * wRe;
        re[b] = (re[a] ?? 0) - tRe;
        im[b] = (im[a] ?? 0) - tIm;
        re[a] = (re[a] ?? 0) + tRe;
        im[a] = (im[a] ?? 0) + tIm;
        const nextRe = wRe * stepRe - wIm * stepIm;
        wIm = wRe * stepIm + wIm * stepRe;
        wRe = nextRe;
      }
    }
  }
}

export interface BandAnalyser {
  /** The band edges in Hz (bands[i] spans edges[i]…edges[i + 1]). */
  readonly edges: readonly number[];
  /** Energy per band of one frame (arbitrary but consistent units). */
  analyse(frame: Float32Array): Float64Array;
}

/** Bands for frames of `frameLength` samples at `sampleRate`, split at `edges` (Hz, ascending). */
export function createBandAnalyser(sampleRate: number, frameLength: number, edges: readonly number[]): BandAnalyser {
  let size = 1;
  while (size < frameLength) size <<= 1;
  const window = new Float64Array(frameLength);
  for (let index = 0; index < frameLength; index += 1) window[index] = 0.5 - 0.5 * Math.cos((2 * Math.PI * index) / Math.max(1, frameLength - 1));
  const binOf = (hz: number) => Math.min(size / 2, Math.max(0, Math.round((hz / sampleRate) * size)));
  const bins = edges.map(binOf);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  return {
    edges,
    analyse(frame) {
      re.fill(0);
      im.fill(0);
      const length = Math.min(frameLength, frame.length);
      for (let index = 0; index < length; index += 1) re[index] = (frame[index] ?? 0) * (window[index] ?? 0);
      fft(re, im);
      const energies = new Float64Array(Math.max(0, bins.length - 1));
      for (let band = 0; band < energies.length; band += 1) {
        let sum = 0;
        const from = bins[band] ?? 0;
        const to = bins[band + 1] ?? from;
        for (let bin = from; bin < to; bin += 1) sum += (re[bin] ?? 0) ** 2 + (im[bin] ?? 0) ** 2;
        energies[band] = sum;
      }
      return energies;
    },
  };
}

import { microphoneOpen, openMicrophone, releaseMicrophone } from './microphone';
import { SpeechRecognitionError } from './speechRecognition';

/** A MediaStream stand-in: stopping its track ends it, as in the browser. */
function fakeStream() {
  const track = {
    readyState: 'live' as 'live' | 'ended',
    stop() {
      track.readyState = 'ended';
    },
  };
  const stream = {
    get active() {
      return track.readyState === 'live';
    },
    getTracks: () => [track],
  };
  return { track, stream: stream as unknown as MediaStream };
}

let getUserMedia: ReturnType<typeof vi.fn>;

function installMediaDevices(answer: () => Promise<MediaStream>) {
  getUserMedia = vi.fn(answer);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
}

afterEach(() => {
  releaseMicrophone();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('the page microphone', () => {
  it('opens with echo cancellation, noise suppression and automatic gain, once for every user', async () => {
    const { stream, track } = fakeStream();
    installMediaDevices(() => Promise.resolve(stream));
    const [detector, recorder] = await Promise.all([openMicrophone(), openMicrophone()]);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(getUserMedia).toHaveBeenCalledWith({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
    expect(detector).toBe(stream);
    expect(recorder).toBe(stream);
    expect(await openMicrophone()).toBe(stream);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(microphoneOpen()).toBe(true);

    releaseMicrophone();
    expect(track.readyState).toBe('ended');
    expect(microphoneOpen()).toBe(false);
  });

  it('opens a fresh stream after a release', async () => {
    const first = fakeStream();
    installMediaDevices(() => Promise.resolve(first.stream));
    await openMicrophone();
    releaseMicrophone();
    const second = fakeStream();
    installMediaDevices(() => Promise.resolve(second.stream));
    expect(await openMicrophone()).toBe(second.stream);
  });

  it('gives the device back at once when released while the browser was still asking', async () => {
    const { stream, track } = fakeStream();
    let grant: (value: MediaStream) => void = () => undefined;
    installMediaDevices(() => new Promise<MediaStream>((resolve) => (grant = resolve)));
    const opening = openMicrophone();
    releaseMicrophone();
    grant(stream);
    await expect(opening).rejects.toBeInstanceOf(SpeechRecognitionError);
    expect(track.readyState).toBe('ended');
    expect(microphoneOpen()).toBe(false);
  });

  it.each([
    ['NotAllowedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotFoundError', 'failed'],
    ['NotReadableError', 'failed'],
  ])('maps %s to the %s message', async (name, problem) => {
    installMediaDevices(() => Promise.reject(new DOMException('refused', name)));
    const error = await openMicrophone().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SpeechRecognitionError);
    expect(error).toMatchObject({ problem, code: name });
    // A refusal is not remembered: the next attempt asks again.
    const { stream } = fakeStream();
    installMediaDevices(() => Promise.resolve(stream));
    expect(await openMicrophone()).toBe(stream);
  });

  it('is unsupported without mediaDevices (an insecure page)', async () => {
    await expect(openMicrophone()).rejects.toMatchObject({ problem: 'unsupported' });
  });
});

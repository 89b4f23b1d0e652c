/**
 * Phoenix channel frames as @supabase/realtime-js sends them: JSON text in the 2.0.0 serializer
 * (an array) or the 1.0.0 one (an object). Binary frames (the 2.0.0 serializer's broadcasts) are
 * not read: the local stack does not relay broadcasts.
 */
import { isRecord } from '../shared';

export type Vsn = '1.0.0' | '2.0.0';

export interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

export function decodeText(vsn: Vsn, text: string): Message | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const asRef = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return null;
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    return { joinRef: asRef(joinRef), ref: asRef(ref), topic, event, payload };
  }
  if (!isRecord(parsed) || typeof parsed.topic !== 'string' || typeof parsed.event !== 'string') return null;
  return {
    joinRef: asRef(parsed.join_ref),
    ref: asRef(parsed.ref),
    topic: parsed.topic,
    event: parsed.event,
    payload: parsed.payload,
  };
}

export function encodeText(vsn: Vsn, message: Message): string {
  if (vsn === '2.0.0') {
    return JSON.stringify([message.joinRef, message.ref, message.topic, message.event, message.payload]);
  }
  return JSON.stringify({
    join_ref: message.joinRef,
    ref: message.ref,
    topic: message.topic,
    event: message.event,
    payload: message.payload,
  });
}

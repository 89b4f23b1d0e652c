/**
 * What the coach session publishes, as LiveKit's `RoomEvent` or Pipecat's `RTVIEvent`: one union
 * of what its parts report (the greeting, the replies, the early start of a reply, the visitor's
 * turn, the visitor's voice over the coach) and `changed` when the snapshot changed. The session reduces each event into its
 * state before anyone else hears it; the hook (`useLiveCoach`) subscribes to `changed`, the
 * timing marks (timingMarks.ts) to the moments they time.
 */
import type { BargeInEvent } from './bargeIn';
import type { EarlyReplyEvent } from './earlyReply';
import type { GreetingEvent } from './greeting';
import type { TurnEvent } from './listening';
import type { ReplyEvent } from './reply';

export type CoachEvent = GreetingEvent | ReplyEvent | EarlyReplyEvent | TurnEvent | BargeInEvent | { type: 'changed' };

export type CoachEventListener = (event: CoachEvent) => void;
